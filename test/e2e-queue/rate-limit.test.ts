/**
 * Queue mode at the service's rate limit: each worker paces its own requests, so two workers share
 * the account's 10 requests per second without knowing of each other. They meet 429s; the retry
 * must still get every item through, once.
 */
import { randomUUID } from 'node:crypto';

import {
	activateChain,
	nodeOutput,
	packageNode,
	postToWebhook,
	splitOutNode,
	webhookBase,
	webhookNode,
} from '../e2e/harness/workflows';
import { allExecutions, useQueueE2e, workersThatRan } from './helpers';

const { client, state, simulator, credentials } = useQueueE2e({
	credentials: 'queue rate limit',
	resetEachTest: false,
});
let workflowId: string | undefined;

afterAll(async () => {
	if (workflowId) await client.deactivate(workflowId);
});

it('four executions of 50 Adds on two workers: 200 jobs, 0 failed, 0 duplicates, and the 429s they met', async () => {
	expect(simulator.config.rateLimit.review).toBe(10);
	const path = `e2e-queue-limit-${randomUUID()}`;
	workflowId = await activateChain(client, 'e2e queue rate limit', [
		webhookNode(path, { respond: 'onReceived' }),
		splitOutNode('body.profiles'),
		packageNode(
			'reviewScraper',
			'Review Scraper',
			{
				resource: 'profile',
				operation: 'add',
				url: '={{ $json.url }}',
			},
			{ reviewScraperApi: credentials.reviewScraperApi },
		),
	]);
	const tag = randomUUID().slice(0, 8);
	const bodies = Array.from({ length: 4 }, (_, run) => ({
		profiles: Array.from({ length: 50 }, (_, i) => ({
			url: `https://www.example.com/biz/queue-${tag}-${run}-${i}`,
		})),
	}));
	const started = Date.now();
	const answers = await Promise.all(
		bodies.map((body) => postToWebhook(`${webhookBase(state)}/webhook/${path}`, body)),
	);
	expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);

	const deadline = Date.now() + 150_000;
	let executions = await allExecutions(client, workflowId, { includeData: true });
	while (
		executions.filter((e) => !['running', 'new', 'waiting'].includes(e.status)).length < 4 &&
		Date.now() < deadline
	) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		executions = await allExecutions(client, workflowId, { includeData: true });
	}
	const seconds = (Date.now() - started) / 1000;
	expect(executions.map((e) => e.status)).toEqual(['success', 'success', 'success', 'success']);
	const acks = executions.flatMap((e) => nodeOutput(e, 'Review Scraper'));
	expect(acks).toHaveLength(200);
	expect(acks.every((ack) => ack.success === true)).toBe(true);

	const perUrl = new Map<string, number>();
	for (const job of simulator.state.work.reviewJob.values()) {
		perUrl.set(String(job.params.url), (perUrl.get(String(job.params.url)) ?? 0) + 1);
	}
	expect(perUrl.size).toBe(200);
	expect([...perUrl.values()].every((count) => count === 1)).toBe(true);
	expect(simulator.counts().jobs).toBe(200);

	const workers = new Set(executions.flatMap((e) => workersThatRan(e.id)));
	const refused = simulator.counts().rateLimited;
	process.stderr.write(
		`[rate-limit queue] 4 x 50 Adds on ${workers.size} worker(s) (${[...workers].join(', ')}): ` +
			`200 jobs, 0 failed, 0 duplicates, ${refused} answered 429, ${seconds.toFixed(1)} s\n`,
	);
	// Both workers took part: otherwise one process paced everything and nothing was shared.
	expect(workers.size).toBe(2);
});
