/**
 * Callbacks as the real service sends them (docs/service-facts.md#re-syncs and #callback-retries):
 * a job re-synced with new content, a retry of the same content, and retries hours apart on the
 * simulator's compressed clock.
 */
import {
	expectExecutionCountStays,
	nodeOutput,
	nodeRun,
	packageNode,
	postToWebhook,
	runThroughWebhook,
} from './harness/workflows';
import { CALLBACK_TRIGGER, useE2e } from './harness/suite';

const { client, simulator, submit, credentials, activeCallbackTrigger } = useE2e({
	credentials: 'redelivery e2e',
});

const TRIGGER = CALLBACK_TRIGGER;

/** The trigger's item of each finished execution, oldest first. */
async function triggerItems(workflowId: string, count: number) {
	const done = await client.waitForExecutions(workflowId, count, 20_000);
	expect(done.every((execution) => execution.status === 'success')).toBe(true);
	return done
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((execution) => nodeOutput(execution, TRIGGER)[0]);
}

/** The same object with its keys in reverse order, at every depth. */
function reversedKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(reversedKeys);
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value)
				.reverse()
				.map(([key, inner]) => [key, reversedKeys(inner)]),
		);
	}
	return value;
}

describe('Scraping Callback Trigger: retries and re-syncs', () => {
	it('first delivery, identical retry, re-sync with one review more → 2 executions, the second an update', async () => {
		// Queue mode: every delivery to one webhook process, whose repeat memory this checks.
		const { id, url } = await activeCallbackTrigger(
			'e2e redelivery: re-sync',
			{},
			{
				oneProcess: true,
			},
		);
		const ack = await submit.reviewJob(url);
		const [first] = await simulator.waitForDeliveries(1, 20_000);
		expect(first).toMatchObject({ state: 'delivered', finalStatus: 200, ref: ack.job_id });

		// The service retries with the same content; key order is not part of the content.
		const retry = await postToWebhook(url, reversedKeys(first.payload) as Record<string, unknown>);
		expect(retry).toEqual({ status: 200, body: { received: true, duplicate: true } });

		const resynced = simulator.resyncReviewJob(Number(ack.job_id));
		const deliveries = await simulator.waitForDeliveries(2, 20_000);
		expect(deliveries[1]).toMatchObject({ state: 'delivered', finalStatus: 200, ref: ack.job_id });

		const [original, update] = await triggerItems(id, 2);
		expect(original).toMatchObject({
			kind: 'reviewJob',
			id: String(ack.job_id),
			outcome: 'completed',
		});
		expect(original.redelivery).toBeUndefined();
		expect(update).toMatchObject({
			kind: 'reviewJob',
			id: String(ack.job_id),
			outcome: 'completed',
			redelivery: 'update',
		});
		expect(Date.parse(String(update.previousDeliveryAt))).toBeLessThanOrEqual(Date.now());
		const reviewsOf = (item: Record<string, unknown>) =>
			(item.payload as { reviews: unknown[] }).reviews.length;
		expect(reviewsOf(update)).toBe(reviewsOf(original) + 1);
		expect(reviewsOf(update)).toBe(resynced.reviews.length);

		// An identical retry of the re-sync starts nothing.
		expect(await postToWebhook(url, resynced)).toEqual({
			status: 200,
			body: { received: true, duplicate: true },
		});
		await expectExecutionCountStays(client, id, 2);
	});
});

describe('Early delivery on the service retry schedule', () => {
	it('a callback refused with 409 before the execution waits is retried 2 h later and resumes it', async () => {
		// 2 simulated hours = 2 real seconds; the node keeps its default time limit (2 days).
		simulator.configure({
			completionDelayMs: 0,
			timeScale: 1 / 3600,
			callbackRetry: { policy: 'service' },
		});
		// The job completes and its callback goes out while the answer to the submit is still on its
		// way, so n8n cannot be waiting yet: the first attempt meets 409 every time, not by a race.
		simulator.injectFault({
			method: 'POST',
			path: '/api/v2/profiles/add',
			kind: 'slow',
			delayMs: 1_000,
			processFirst: true,
		});
		const node = packageNode(
			'reviewScraper',
			'Review Scraper',
			{
				resource: 'profile',
				operation: 'add',
				url: 'https://www.example.com/biz/e2e-early',
				waitForCompletion: true,
			},
			{ reviewScraperApi: credentials.reviewScraperApi },
		);
		const run = await runThroughWebhook(
			client,
			'e2e wait: early delivery',
			[node],
			{},
			{
				respond: 'onReceived',
				timeoutMs: 30_000,
			},
		);
		expect(run.execution.status).toBe('success');
		const [delivery] = simulator.deliveries();
		expect(delivery.attemptLog.map((attempt) => attempt.status)).toEqual([409, 200]);
		const gap = Date.parse(delivery.attemptLog[1].at) - Date.parse(delivery.attemptLog[0].at);
		expect(gap).toBeGreaterThanOrEqual(2_000);
		const [result] = run.output('Review Scraper');
		expect(result).toMatchObject({ wait_status: 'completed', outcome: 'completed' });
		expect(nodeRun(run.execution, 'Review Scraper').error).toBeUndefined();
	});
});
