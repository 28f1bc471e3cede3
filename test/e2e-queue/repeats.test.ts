import { randomUUID } from 'node:crypto';

import type { N8nClient, WorkflowNode } from '../e2e/harness/client';
import type { QueueControl } from '../e2e/harness/queue-control';
import type { QueueState, SuiteState } from '../e2e/harness/state';
import {
	activateChain,
	nodeOutput,
	packageNode,
	postToWebhook,
	productionUrl,
} from '../e2e/harness/workflows';
import { allExecutions, connectQueue, sleep } from './helpers';

/**
 * The trigger remembers deliveries in its own process only. With two webhook processes, or after a
 * restart, a retried delivery starts the workflow again: the README's answer is n8n's Remove
 * Duplicates node on the trigger's `deliveryKey`, whose history lives in n8n's database and is
 * shared by every process. This shows it: one delivery sent to each webhook process and once more
 * after a restart is processed once.
 */
let client: N8nClient;
let state: SuiteState & { queue: QueueState };
let control: QueueControl;
let workflowId: string | undefined;
let extraStarted = false;

beforeAll(() => {
	({ client, state, control } = connectQueue());
});

afterAll(async () => {
	if (workflowId) await client.deactivate(workflowId);
	if (extraStarted) await control.stopWebhook(1).catch(() => undefined);
});

const removeDuplicates = (): WorkflowNode => ({
	id: randomUUID(),
	name: 'Remove Duplicates',
	type: 'n8n-nodes-base.removeDuplicates',
	typeVersion: 2,
	position: [0, 0],
	parameters: {
		operation: 'removeItemsSeenInPreviousExecutions',
		logic: 'removeItemsWithAlreadySeenKeyValues',
		dedupeValue: '={{ $json.deliveryKey }}',
		options: { scope: 'workflow' },
	},
});

const processed = (): WorkflowNode => ({
	id: randomUUID(),
	name: 'Processed',
	type: 'n8n-nodes-base.noOp',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

describe('a repeated delivery across webhook processes and a restart', () => {
	it('is processed once behind Remove Duplicates on deliveryKey', async () => {
		const started = await control.startWebhook(1);
		extraStarted = true;
		const second = started.processes.find((p) => p.name === 'webhook1');
		expect(second?.alive).toBe(true);

		const trigger = packageNode('scrapingCallbackTrigger', 'Trigger', {});
		workflowId = await activateChain(client, 'queue: repeats across processes', [
			trigger,
			removeDuplicates(),
			processed(),
		]);
		const path = productionUrl('', trigger, 'callback');
		const first = `${state.queue.processes.find((p) => p.name === 'webhook')?.url}${path}`;
		const other = `${second?.url}${path}`;
		const job = {
			success: true,
			status: 200,
			job_id: 424242,
			crawl_status: 'complete',
			reviews: [{ id: 'r1', rating_value: 5 }],
		};

		expect((await postToWebhook(first, job)).status).toBe(200);
		expect((await postToWebhook(other, job)).status).toBe(200);
		await control.stopWebhook(1);
		const restarted = await control.startWebhook(1);
		expect(restarted.processes.find((p) => p.name === 'webhook1')?.alive).toBe(true);
		expect((await postToWebhook(other, job)).status).toBe(200);

		// Each process (and the restarted one) knows nothing of the others' deliveries: three
		// executions, of which the first alone gets past Remove Duplicates.
		const deadline = Date.now() + 30_000;
		let executions = await allExecutions(client, workflowId);
		while (
			(executions.length < 3 || executions.some((e) => e.status !== 'success')) &&
			Date.now() < deadline
		) {
			await sleep(250);
			executions = await allExecutions(client, workflowId);
		}
		expect(executions).toHaveLength(3);
		const keys = new Set<unknown>();
		let processedItems = 0;
		for (const summary of executions) {
			const execution = await client.getExecution(summary.id);
			expect(execution.status).toBe('success');
			for (const item of nodeOutput(execution, 'Trigger')) keys.add(item.deliveryKey);
			const runs = execution.data?.resultData.runData.Processed;
			processedItems += runs ? nodeOutput(execution, 'Processed').length : 0;
		}
		expect(keys.size).toBe(1);
		expect(processedItems).toBe(1);
	});
});
