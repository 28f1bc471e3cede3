import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	actionNodes,
	arrange,
	cases,
	expectOutcome,
	missingRows,
	newestVersion,
	nodeSettings,
	rows,
	type MatrixCase,
} from '../settings/matrix';
import type { NodeRun, WorkflowNode } from './harness/client';
import { n8nMajor } from './harness/compat';
import { chain, nodeRun, splitOutNode, webhookNode } from './harness/workflows';
import { useE2e } from './harness/suite';

/**
 * n8n's Settings tab on every operation (test/settings/matrix.ts) in a real n8n 2.x and 1.x (queue
 * mode leaves it out: see jest.config.js): On Error's three modes x Retry On Fail, three items each. Each node's cases run
 * one after the other (their faults and seeded records are the node's own), the four nodes side by
 * side.
 */
const { client, simulator, credentials, activated } = useE2e({
	credentials: 'settings matrix',
	resetEachTest: false,
	deactivate: 'afterAll',
});
const NODE = 'Node Under Test';
const CREDENTIAL: Record<string, string> = {
	reviewScraper: 'reviewScraperApi',
	ecommerceSearch: 'scrapingApi',
	socialScraper: 'scrapingApi',
	scrapingScheduler: 'scrapingApi',
};

it('has a row for every operation of every action node', () => {
	expect(missingRows()).toEqual([]);
});

/** Names the step a case failed at: a bare "aborted due to timeout" does not say which call. */
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (error) {
		throw new Error(`${name}: ${(error as Error).message}`);
	}
}

async function runCase(matrixCase: MatrixCase): Promise<void> {
	const row = rows[matrixCase.node][matrixCase.operation];
	const tag = randomUUID().slice(0, 8);
	const { items, goodSent, refused } = await arrange(simulator, row, tag);
	const credential = CREDENTIAL[matrixCase.node];
	const node: WorkflowNode = {
		id: randomUUID(),
		name: NODE,
		type: `n8n-nodes-review-scraping.${matrixCase.node}`,
		typeVersion: newestVersion(actionNodes[matrixCase.node]),
		position: [0, 0],
		credentials: { [credential]: credentials[credential] },
		...nodeSettings(matrixCase, row),
	} as WorkflowNode;
	const path = `settings-${tag}`;
	// The run is read from n8n's execution record, so the webhook answers on receipt: no case
	// waits on n8n's queue-mode answer at the last node (see QUEUE_JOB_RETENTION).
	const { id } = await step('create the workflow', () =>
		client.createWorkflow({
			name: `settings matrix: ${matrixCase.node} ${matrixCase.operation} ${matrixCase.onError} retry ${matrixCase.retry}`,
			...chain([webhookNode(path, { respond: 'onReceived' }), splitOutNode('body.items'), node]),
		}),
	);
	await step('activate it', () => client.activate(id));
	activated.add(id);
	await step('call its webhook', async () => {
		const answer = await client.callWebhook(path, { items }, 30_000);
		await answer.arrayBuffer();
		if (!answer.ok) throw new Error(`n8n answered ${answer.status}`);
	});
	const [execution] = await step('wait for its execution', () =>
		client.waitForExecutions(id, 1, 90_000),
	);
	await step('deactivate it', () => client.deactivate(id));
	const run = nodeRun(execution, NODE) as unknown as Omit<NodeRun, 'error' | 'data'> & {
		error?: { message?: string; context?: IDataObject };
		data?: { main: Array<INodeExecutionData[] | null> };
	};
	expectOutcome(matrixCase, row, items as IDataObject[], {
		status: execution.status,
		error: run.error && {
			message: run.error.message,
			itemIndex: run.error.context?.itemIndex as number | undefined,
		},
		outputs: (run.data?.main ?? []).map((output) => output ?? []),
		goodSent: goodSent(),
		detailsKept: n8nMajor() >= 2,
		refused,
	});
}

it('every operation x On Error x Retry On Fail routes each item and submits nothing twice', async () => {
	const started = Date.now();
	const failures: string[] = [];
	let ran = 0;
	// jest starts concurrent tests before beforeAll has finished: the lanes run inside one test.
	await Promise.all(
		Object.keys(actionNodes).map(async (node) => {
			for (const matrixCase of cases.filter((c) => c.node === node && rows[node]?.[c.operation])) {
				try {
					await runCase(matrixCase);
				} catch (error) {
					const name = `${node} ${matrixCase.operation}, On Error ${matrixCase.onError}, retry ${matrixCase.retry}`;
					failures.push(`${name}: ${(error as Error).message}`);
				}
				ran++;
			}
		}),
	);
	console.log(
		`settings matrix in real n8n: ${ran} cases in ${Math.round((Date.now() - started) / 1000)} s`,
	);
	expect(failures).toEqual([]);
	expect(ran).toBe(cases.length);
}, 900_000);
