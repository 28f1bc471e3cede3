/**
 * The service's rate limit, met the way users meet it: the simulator at its default (production)
 * settings, 10 requests per second per credential, and the credentials at their default Requests
 * per Second. Figures go to stderr for the closing notes.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowNode } from './harness/client';
import { directSubmitter } from './harness/submit';
import { packageNode, runThroughWebhook, splitOutNode } from './harness/workflows';
import { useE2e } from './harness/suite';

const { client, state, simulator, credentials } = useE2e({ credentials: 'rate limit e2e' });

const LIMIT = 10;

beforeEach(() => {
	expect(simulator.config.rateLimit).toEqual({ review: LIMIT, apiKey: LIMIT });
	expect(simulator.config.reviewErrors).toBe('http200');
});

const figures = (line: string) => process.stderr.write(`[rate-limit ${state.mode}] ${line}\n`);

const reviewScraper = (parameters: Record<string, unknown>): WorkflowNode =>
	packageNode('reviewScraper', 'Review Scraper', parameters, {
		reviewScraperApi: credentials.reviewScraperApi,
	});

const profiles = (count: number, tag: string) =>
	Array.from({ length: count }, (_, i) => ({ url: `https://www.example.com/biz/${tag}-${i}` }));

/** Jobs per profile URL: every URL must have exactly one. */
function jobsPerUrl(): Map<string, number> {
	const perUrl = new Map<string, number>();
	for (const job of simulator.state.reviewJobs.values()) {
		const url = String(job.params.url);
		perUrl.set(url, (perUrl.get(url) ?? 0) + 1);
	}
	return perUrl;
}

describe('at the service rate limit (10 requests per second)', () => {
	it('Profile → Add with 200 items queues 200 jobs, none failed or doubled, near 200 / limit seconds', async () => {
		const input = profiles(200, `limit-add-${randomUUID().slice(0, 8)}`);
		const run = await runThroughWebhook(
			client,
			'e2e rate limit add',
			[
				splitOutNode('body.profiles'),
				reviewScraper({ resource: 'profile', operation: 'add', url: '={{ $json.url }}' }),
			],
			{ profiles: input },
			{ timeoutMs: 120_000 },
		);
		expect(run.execution.status).toBe('success');
		const acks = run.output('Review Scraper');
		expect(acks).toHaveLength(200);
		expect(acks.every((ack) => ack.success === true && typeof ack.job_id === 'number')).toBe(true);
		expect(new Set(acks.map((ack) => ack.job_id)).size).toBe(200);

		const perUrl = jobsPerUrl();
		expect(perUrl.size).toBe(200);
		expect([...perUrl.values()].every((count) => count === 1)).toBe(true);
		expect(simulator.counts().jobs).toBe(200);

		const seconds = run.run('Review Scraper').executionTime / 1000;
		const ideal = 200 / LIMIT;
		const refused = simulator.counts().rateLimited;
		figures(
			`Add x200: ${seconds.toFixed(1)} s = ${(seconds / ideal).toFixed(2)} x of 200/limit, ` +
				`200 jobs, 0 duplicates, ${refused} answered 429`,
		);
		expect(seconds).toBeLessThanOrEqual(1.25 * ideal);
	});

	it('Add Many with 1,000 items and batches of 100 sends 10 requests, none refused', async () => {
		const input = profiles(1000, `limit-bulk-${randomUUID().slice(0, 8)}`);
		const run = await runThroughWebhook(
			client,
			'e2e rate limit add many',
			[
				splitOutNode('body.profiles'),
				reviewScraper({
					resource: 'profile',
					operation: 'addMany',
					url: '={{ $json.url }}',
					options: { batchSize: 100 },
				}),
			],
			{ profiles: input },
			{ timeoutMs: 120_000 },
		);
		expect(run.execution.status).toBe('success');
		expect(run.output('Review Scraper')).toHaveLength(1000);
		const bulk = simulator.requests().filter((r) => r.path === '/api/v2/profiles/add_bulk');
		expect(bulk).toHaveLength(10);
		expect(bulk.every((r) => r.responseStatus === 200)).toBe(true);
		expect(simulator.counts()).toEqual(expect.objectContaining({ bulkJobs: 1000, rateLimited: 0 }));
		figures(`Add Many x1000: ${bulk.length} requests, 0 answered 429`);
	});

	it('Return All over 50 pages keeps under the limit and returns every post exactly once', async () => {
		simulator.configure({ photoPostCount: 5000 });
		const { request_id: requestId } = await directSubmitter(simulator).photoSearch(
			`${simulator.urls.controlUrl}/no-callback-needed`,
		);
		await simulator.waitForDeliveries(1, 20_000);
		simulator.clearRequests();
		const run = await runThroughWebhook(
			client,
			'e2e rate limit return all',
			[
				packageNode(
					'socialScraper',
					'Social Scraper',
					{
						resource: 'photoPost',
						operation: 'getResults',
						requestId,
						returnAll: true,
						options: { perPage: 100 },
					},
					{ scrapingApi: credentials.scrapingApi },
				),
			],
			{},
			{ timeoutMs: 120_000 },
		);
		expect(run.execution.status).toBe('success');
		const posts = run.output('Social Scraper');
		expect(posts).toHaveLength(5000);
		expect(new Set(posts.map((post) => post.unique_id)).size).toBe(5000);
		const calls = simulator.requests().filter((r) => r.api === 'photo');
		const pages = calls.filter(
			(r) => r.path === `/v1/search/${requestId}` && r.responseStatus === 200,
		);
		expect(pages.map((r) => Number(r.query.page)).sort((a, b) => a - b)).toEqual(
			Array.from({ length: 50 }, (_, i) => i + 1),
		);
		const refused = calls.filter((r) => r.rateLimited).length;
		figures(
			`Return All x50 pages: ${calls.length - refused} requests accepted, ${refused} answered 429, ` +
				`${(run.run('Social Scraper').executionTime / 1000).toFixed(1)} s`,
		);
		// Paced, a refusal is rare (jitter between two sends on a loaded machine) and retried; unpaced,
		// 8 pages in flight would meet dozens.
		expect(refused).toBeLessThanOrEqual(3);
	});
});
