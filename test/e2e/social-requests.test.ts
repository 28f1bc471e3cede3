/**
 * The Social Scraper operations the other files do not run in real n8n on their own: Social Post →
 * Scrape without waiting and its Get Results, and the two Get Status operations. Part of the
 * compatibility subset, so that every operation runs once on each n8n version.
 */
import type { WorkflowNode } from './harness/client';
import { directSubmitter } from './harness/submit';
import { packageNode, runThroughWebhook } from './harness/workflows';
import { useE2e } from './harness/suite';

const { client, simulator, credentials } = useE2e({ credentials: 'social requests e2e' });

const socialScraper = (parameters: Record<string, unknown>): WorkflowNode =>
	packageNode('socialScraper', 'Social Scraper', parameters, {
		scrapingApi: credentials.scrapingApi,
	});

/** What the service itself answers for a GET, to compare the node's output with. */
async function serviceGet(url: string): Promise<Record<string, unknown>> {
	const res = await fetch(url, { headers: { 'x-api-key': simulator.config.apiKey } });
	expect(res.status).toBe(200);
	return (await res.json()) as Record<string, unknown>;
}

describe('Social Scraper requests in real n8n', () => {
	it('Social Post → Scrape acknowledges the request; Get Results gives one item per post', async () => {
		const callbackUrl = `${simulator.urls.controlUrl}/no-callback-needed`;
		const scrape = await runThroughWebhook(client, 'e2e social scrape', [
			socialScraper({
				resource: 'socialPost',
				operation: 'scrape',
				url: 'https://social.example.com/e2e/posts/compat',
				callbackUrl,
			}),
		]);
		expect(scrape.execution.status).toBe('success');
		const [ack] = scrape.output('Social Scraper');
		const requestId = String(ack.request_id);
		expect(requestId).not.toBe('undefined');
		const [submitted] = simulator
			.requests()
			.filter((r) => r.api === 'social' && r.method === 'POST' && r.path === '/v1/scrape');
		expect(submitted.body).toMatchObject({
			url: 'https://social.example.com/e2e/posts/compat',
			callback_url: callbackUrl,
		});
		await simulator.waitForDeliveries(1, 20_000);

		const results = await runThroughWebhook(client, 'e2e social results', [
			socialScraper({ resource: 'socialPost', operation: 'getResults', requestId }),
		]);
		expect(results.execution.status).toBe('success');
		const envelope = await serviceGet(
			`${simulator.urls.socialScraperUrl}/v1/scrape/${encodeURIComponent(requestId)}`,
		);
		const posts = envelope.results as Array<Record<string, unknown>>;
		expect(posts.length).toBeGreaterThan(0);
		expect(results.output('Social Scraper')).toEqual(
			posts.map((post) => ({ request_id: envelope.request_id, ...post })),
		);
	});

	it('Photo Post → Get Status and Video Request → Get Status return the status record', async () => {
		const { request_id: photoId } = await directSubmitter(simulator).photoSearch(
			`${simulator.urls.controlUrl}/no-callback-needed`,
		);
		await simulator.waitForDeliveries(1, 20_000);
		const video = simulator.seedVideoRequest({});

		const run = await runThroughWebhook(client, 'e2e status records', [
			socialScraper({ resource: 'photoPost', operation: 'getStatus', requestId: String(photoId) }),
			{
				...socialScraper({
					resource: 'videoRequest',
					operation: 'getStatus',
					requestId: String(video.request_id),
				}),
				name: 'Video Status',
			},
		]);
		expect(run.execution.status).toBe('success');
		const photoStatus = await serviceGet(
			`${simulator.urls.photoScraperUrl}/v1/requests/${encodeURIComponent(String(photoId))}`,
		);
		expect(photoStatus.status).toBe('completed');
		expect(run.output('Social Scraper')).toEqual([photoStatus]);
		// A video request moves on by itself (created → completed, its credits charged at the end):
		// compare what does not change.
		const {
			status: _status,
			updated_at: _updatedAt,
			credits_used: _creditsUsed,
			...videoRecord
		} = await serviceGet(
			`${simulator.urls.videoScraperUrl}/v1/requests/${encodeURIComponent(String(video.request_id))}`,
		);
		expect(videoRecord.request_id).toBe(video.request_id);
		expect(run.output('Video Status')).toEqual([expect.objectContaining(videoRecord)]);
	});
});
