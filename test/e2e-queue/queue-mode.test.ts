import { randomUUID } from 'node:crypto';

import { ReviewJobCallback } from '../../simulator/schemas';
import { asDelivered, deliveryMarks } from '../e2e/harness/delivered';
import type { WorkflowNode } from '../e2e/harness/client';
import {
	chain,
	nodeOutput,
	postToWebhook,
	REVIEW_SCRAPER,
	webhookNode,
} from '../e2e/harness/workflows';
import {
	allExecutions,
	processLog,
	sleep,
	timesEnqueued,
	useQueueE2e,
	workersThatRan,
} from './helpers';

const { client, state, control, simulator, credentials, activated } = useQueueE2e({
	credentials: 'queue mode',
});

function packageNode(
	type: string,
	name: string,
	parameters: Record<string, unknown>,
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: `n8n-nodes-review-scraping.${type}`,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters,
	};
}

async function activate(name: string, nodes: WorkflowNode[]): Promise<string> {
	const { id } = await client.createWorkflow({ name, ...chain(nodes) });
	await client.activate(id);
	activated.add(id);
	return id;
}

/** Submits a review job straight to the simulator, as a user's other system would. */
async function submitReviewJob(callback: string): Promise<number> {
	const query = new URLSearchParams({
		url: `https://www.example.com/biz/queue-${randomUUID()}`,
		blocks: '3',
		callback,
	});
	const res = await fetch(`${simulator.urls.baseUrl}/api/v2/profiles/add?${query}`, {
		method: 'POST',
		headers: { 'spiderman-token': simulator.config.token },
	});
	expect(res.status).toBe(200);
	return ((await res.json()) as { job_id: number }).job_id;
}

/** Polls `read` for up to 10 s until it returns `length` elements. */
async function until<T>(read: () => T[], length: number): Promise<T[]> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const current = read();
		if (current.length === length || Date.now() > deadline) return current;
		await sleep(100);
	}
}

describe('queue mode cluster', () => {
	it('runs one main, one webhook process and two workers, each answering its health check', async () => {
		// Webhook processes beyond the first are started on demand by other tests (repeats.test.ts)
		// and listed, stopped, once they ran.
		const processes = (await control.processes()).filter((p) => !/^webhook\d+$/.test(p.name));
		expect(processes.map((p) => [p.name, p.alive])).toEqual([
			['main', true],
			['webhook', true],
			['worker0', true],
			['worker1', true],
		]);
		expect(new Set(processes.map((p) => p.url)).size).toBe(4);
		expect(state.webhookUrl).toBe(processes[1].url);
		for (const { url } of processes) {
			const res = await fetch(`${url}/healthz/readiness`);
			expect({ url, status: res.status }).toEqual({ url, status: 200 });
		}
	});
});

describe('Scraping Callback Trigger in queue mode', () => {
	it('a callback reaches the trigger through the webhook process and runs once on a worker', async () => {
		const trigger = packageNode('scrapingCallbackTrigger', 'Scraping Callback Trigger', {});
		const workflowId = await activate('queue: callback trigger', [trigger]);
		const path = `webhook/${trigger.webhookId}/callback`;
		const url = `${state.webhookUrl}/${path}`;
		expect((await postToWebhook(url, {})).status).toBe(400);
		// Production webhooks are the webhook process's job only.
		expect((await postToWebhook(`${state.n8nUrl}/${path}`, {}, { timeoutMs: 0 })).status).toBe(404);

		const jobId = await submitReviewJob(url);
		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		expect(delivery).toEqual(expect.objectContaining({ state: 'delivered', finalStatus: 200 }));

		const [execution] = await client.waitForExecutions(workflowId, 1, 30_000);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Scraping Callback Trigger')).toEqual([
			{
				kind: 'reviewJob',
				id: String(jobId),
				outcome: 'completed',
				payload: asDelivered(delivery.payload),
				...deliveryMarks('reviewJob', String(jobId), delivery.payload),
			},
		]);
		expect(timesEnqueued(processLog(state, 'webhook'), execution.id)).toBe(1);
		expect(timesEnqueued(processLog(state, 'main'), execution.id)).toBe(0);
		expect(workersThatRan(execution.id)).toHaveLength(1);

		// The webhook process that took the first delivery recognises the repeat.
		expect(await postToWebhook(url, delivery.payload as Record<string, unknown>)).toEqual({
			status: 200,
			body: { received: true, duplicate: true },
		});
		await sleep(1000);
		expect(await allExecutions(client, workflowId)).toHaveLength(1);
	});
});

describe('Wait for Completion in queue mode', () => {
	it('the callback resumes the waiting execution through the webhook process, on a worker', async () => {
		const scraper: WorkflowNode = {
			id: randomUUID(),
			name: 'Review Scraper',
			type: REVIEW_SCRAPER,
			typeVersion: 1,
			position: [0, 0],
			credentials: { reviewScraperApi: credentials.reviewScraperApi },
			parameters: {
				resource: 'profile',
				operation: 'add',
				url: 'https://www.example.com/biz/queue-wait',
				waitForCompletion: true,
				waitTimeLimit: 5,
				additionalFields: { blocks: 3, externalIdentifier: 'queue-wait' },
			},
		};
		const path = `queue-wait-${randomUUID()}`;
		const workflowId = await activate('queue: wait for completion', [
			webhookNode(path, { respond: 'onReceived' }),
			scraper,
		]);
		expect((await client.callWebhook(path, {})).status).toBe(200);

		const [execution] = await client.waitForExecutions(workflowId, 1, 60_000);
		expect(execution.status).toBe('success');
		const [delivery] = simulator.deliveries();
		expect(delivery.url).toMatch(
			new RegExp(`^${state.webhookUrl}/webhook-waiting/${execution.id}/${scraper.id}\\?signature=`),
		);
		expect(delivery.state).toBe('delivered');
		const [result] = nodeOutput(execution, 'Review Scraper');
		const { wait_status: waitStatus, outcome, ...payload } = result;
		expect(waitStatus).toBe('completed');
		expect(outcome).toBe('completed');
		expect(payload).toEqual(asDelivered(delivery.payload));
		expect(ReviewJobCallback.parse(delivery.payload).reviews.length).toBeGreaterThan(0);

		// Two runs on workers: up to the wait, then after the resume the webhook process enqueued.
		expect(workersThatRan(execution.id)).toHaveLength(2);
		expect(timesEnqueued(processLog(state, 'webhook'), execution.id)).toBe(2);
	});
});

describe('Scheduled Scrape Trigger lifecycle in queue mode', () => {
	it('activation on main creates the schedule, deliveries run through the webhook process, deactivation deletes it', async () => {
		const trigger = {
			...packageNode('scheduledScrapeTrigger', 'Scheduled Scrape Trigger', {
				collect: 'profile',
				frequency: 'daily',
				url: 'https://www.example.com/biz/queue-schedule',
				blocks: 2,
			}),
			credentials: { scrapingApi: credentials.scrapingApi },
		};
		const { id: workflowId } = await client.createWorkflow({
			name: 'queue: scheduled trigger',
			...chain([trigger]),
		});
		await client.activate(workflowId);
		let active = true;
		try {
			// Activation returns before the trigger's `create` has run.
			const schedules = await until(() => [...simulator.state.schedules.values()], 1);
			const { schedule } = schedules[0];
			const callback = new URL(String(schedule.payload.query_params.callback));
			expect(`${callback.origin}${callback.pathname}`).toBe(
				`${state.webhookUrl}/webhook/${trigger.webhookId}/scheduled`,
			);

			await simulator.fireSchedule(schedule.schedule_id);
			const [delivery] = await simulator.waitForDeliveries(1, 20_000);
			// The secret that main stored on activation is what the webhook process checks.
			expect(delivery).toEqual(expect.objectContaining({ state: 'delivered', finalStatus: 200 }));
			const [execution] = await client.waitForExecutions(workflowId, 1, 30_000);
			expect(execution.status).toBe('success');
			expect(timesEnqueued(processLog(state, 'webhook'), execution.id)).toBe(1);
			expect(workersThatRan(execution.id)).toHaveLength(1);

			await client.deactivate(workflowId);
			active = false;
			expect(await until(() => [...simulator.state.schedules.values()], 0)).toEqual([]);
		} finally {
			if (active) await client.deactivate(workflowId);
		}
	});
});
