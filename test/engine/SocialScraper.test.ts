import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, startReceiver, useSimulator } from './fixtures';

/** Paging at scale, which the workflow files of SocialScraper/ keep small. */
const POST_COUNT = 230;
const context = useSimulator({ photoPostCount: POST_COUNT });
const TYPE = 'n8n-nodes-review-scraping.socialScraper';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => (receiver = await startReceiver()));
afterAll(async () => await receiver.close());

const run = async (parameters: INodeParameters) =>
	await runNode(context.sim, { type: TYPE, typeVersion: 1.1, parameters });
const photoResults = (requestId: string, parameters: IDataObject = {}) => ({
	resource: 'photoPost',
	operation: 'getResults',
	requestId,
	...parameters,
});

/** Submits a search and waits for the callback, which the simulator sends on completion. */
async function completedPhotoSearch(): Promise<string> {
	const submitted = await run({
		resource: 'photoPost',
		operation: 'search',
		keyword: '#sunset',
		callbackUrl: `${receiver.url}/photo`,
	});
	const requestId = String(submitted.items()[0].request_id);
	await context.sim.waitForDeliveries(1, 5000);
	context.sim.clearRequests();
	return requestId;
}

const storedPostIds = (requestId: string) =>
	context.sim.state.work.photoSearch.get(requestId)!.results.map((post) => post.post_id);

// A request refused with 429 (the service's 10 per second, which timer jitter on a loaded machine
// can reach) is not a read: the transport sends it again, and only the answered one counts.
const resultPageRequests = (requestId: string) =>
	context.sim
		.requests()
		.filter((request) => request.path === `/v1/search/${requestId}` && !request.rateLimited)
		.map((request) => request.query as Record<string, string>);

describe('Photo Post → Get Results', () => {
	it('returns all 230 posts over 23 pages, each page read once, without duplicates or gaps', async () => {
		const requestId = await completedPhotoSearch();
		const result = await run(
			photoResults(requestId, { returnAll: true, options: { perPage: 10 } }),
		);
		expect(result.status).toBe('success');
		const items = result.items();
		expect(items).toHaveLength(POST_COUNT);
		const postIds = items.map((item) => item.post_id);
		expect(new Set(postIds).size).toBe(POST_COUNT);
		expect(postIds).toEqual(storedPostIds(requestId));
		expect(items.every((item) => item.request_id === requestId)).toBe(true);

		const pages = resultPageRequests(requestId);
		expect(pages.every((query) => query.per_page === '10')).toBe(true);
		expect(pages.map((query) => Number(query.page)).sort((a, b) => a - b)).toEqual(
			Array.from({ length: 23 }, (_, index) => index + 1),
		);
	});

	it('gets past a 503 and a connection reset on result pages with the exact count', async () => {
		const requestId = await completedPhotoSearch();
		context.sim.injectFault({ api: 'photo', method: 'GET', path: '/v1/search/', kind: '503' });
		context.sim.injectFault({
			api: 'photo',
			method: 'GET',
			path: '/v1/search/',
			kind: 'reset-after',
		});
		const result = await run(
			photoResults(requestId, { returnAll: true, options: { perPage: 10 } }),
		);
		expect(result.status).toBe('success');
		expect(result.items().map((item) => item.post_id)).toEqual(storedPostIds(requestId));
		expect(resultPageRequests(requestId)).toHaveLength(25);
	});
});
