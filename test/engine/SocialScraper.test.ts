import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SocialScraper } from '../../nodes/SocialScraper/SocialScraper.node';
import { PhotoEnvelope, PhotoPost, SocialEnvelope } from '../../simulator/schemas';
import { credentialsFor, credentialTypes, startReceiver, useSimulator } from './fixtures';
import { type NodeSpec, runWorkflow } from './harness';

const POST_COUNT = 230;
const context = useSimulator({ photoPostCount: POST_COUNT });
const NAME = 'Social Scraper';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => await receiver.close());
beforeEach(() => {
	receiver.received.length = 0;
});

async function run(
	parameters: INodeParameters,
	inputItems: IDataObject[] = [{}],
	node: Partial<NodeSpec> = {},
) {
	const result = await runWorkflow({
		nodes: [
			{
				name: NAME,
				type: 'n8n-nodes-review-scraping.socialScraper',
				parameters,
				// The tests below were written for version 1.1; version 1.2's changes have their own.
				typeVersion: 1.1,
				...node,
			},
		],
		nodeTypes: { 'n8n-nodes-review-scraping.socialScraper': new SocialScraper() },
		credentialTypes,
		credentials: credentialsFor(context.sim),
		inputItems: inputItems.map((json): INodeExecutionData => ({ json })),
	});
	return { ...result, items: () => result.json(NAME), pairs: () => result.output(NAME)[0] };
}

// The validation table is built before the receiver starts; nothing is sent there anyway.
const callbackBase = () => receiver?.url ?? 'http://127.0.0.1:9';

const photoSearch = (parameters: IDataObject = {}) => ({
	resource: 'photoPost',
	operation: 'search',
	keyword: '#sunset',
	callbackUrl: `${callbackBase()}/photo`,
	...parameters,
});
const photoResults = (requestId: string, parameters: IDataObject = {}) => ({
	resource: 'photoPost',
	operation: 'getResults',
	requestId,
	...parameters,
});
const socialScrape = (parameters: IDataObject = {}) => ({
	resource: 'socialPost',
	operation: 'scrape',
	url: 'https://social.example.com/someone/posts/42',
	callbackUrl: `${callbackBase()}/social`,
	...parameters,
});

/** Submits through the node and waits for the callback, which the simulator sends on completion. */
async function completedPhotoSearch(): Promise<string> {
	const submitted = await run(photoSearch());
	const requestId = String(submitted.items()[0].request_id);
	await context.sim.waitForDeliveries(1, 5000);
	context.sim.clearRequests();
	return requestId;
}

async function completedScrape(): Promise<string> {
	const submitted = await run(socialScrape());
	const requestId = String(submitted.items()[0].request_id);
	await context.sim.waitForDeliveries(1, 5000);
	context.sim.clearRequests();
	return requestId;
}

const storedPostIds = (requestId: string) =>
	context.sim.state.photoRequests.get(requestId)!.results.map((post) => post.post_id);

// A request refused with 429 (the service's 10 per second, which timer jitter on a loaded machine
// can reach) is not a read: the transport sends it again, and only the answered one counts.
const resultPageRequests = (requestId: string) =>
	context.sim
		.requests()
		.filter((request) => request.path === `/v1/search/${requestId}` && !request.rateLimited)
		.map((request) => request.query as Record<string, string>);

describe('Photo Post → Get Results', () => {
	it('says the request is not completed yet instead of returning an empty list, reading no result page', async () => {
		context.sim.configure({ completionDelayMs: 60_000 });
		const submitted = await run(photoSearch());
		const requestId = String(submitted.items()[0].request_id);
		context.sim.clearRequests();

		const result = await run(photoResults(requestId, { returnAll: true }));
		expect(result.status).toBe('error');
		expect(result.nodeError(NAME)).toMatchObject({
			name: 'NodeOperationError',
			message: `Request ${requestId} is not completed yet (status "created")`,
			description: expect.stringContaining('callback URL'),
		});
		expect(context.sim.requests().map((request) => request.path)).toEqual([
			`/v1/requests/${requestId}`,
		]);
	});

	it('returns one page of posts, one item per post with the request_id', async () => {
		const requestId = await completedPhotoSearch();
		const result = await run(photoResults(requestId, { page: 3, options: { perPage: 7 } }));
		expect(result.status).toBe('success');
		const items = result.items();
		expect(items.map((item) => item.post_id)).toEqual(storedPostIds(requestId).slice(14, 21));
		for (const { request_id, ...post } of items) {
			expect(request_id).toBe(requestId);
			PhotoPost.parse(post);
		}
		expect(context.sim.requests().map((request) => request.path)).toEqual([
			`/v1/requests/${requestId}`,
			`/v1/search/${requestId}`,
		]);
		expect(resultPageRequests(requestId)).toEqual([{ page: '3', per_page: '7' }]);
	});

	it('version 1.2: Limit reads as many pages as it takes and returns the first Limit posts', async () => {
		const requestId = await completedPhotoSearch();
		const result = await run(
			photoResults(requestId, { limit: 25, options: { perPage: 10 } }),
			[{}],
			{ typeVersion: 1.2 },
		);
		expect(result.status).toBe('success');
		const items = result.items();
		expect(items.map((item) => item.post_id)).toEqual(storedPostIds(requestId).slice(0, 25));
		expect(items.every((item) => item.request_id === requestId)).toBe(true);
		expect(resultPageRequests(requestId)).toEqual(
			expect.arrayContaining([
				{ page: '1', per_page: '10' },
				{ page: '2', per_page: '10' },
				{ page: '3', per_page: '10' },
			]),
		);
		expect(resultPageRequests(requestId)).toHaveLength(3);
	});

	it('version 1.2: Whole Response holds the first Limit posts', async () => {
		const requestId = await completedPhotoSearch();
		const result = await run(photoResults(requestId, { limit: 5, output: 'envelope' }), [{}], {
			typeVersion: 1.2,
		});
		const [envelope] = result.items();
		expect(result.items()).toHaveLength(1);
		expect((envelope.results as IDataObject[]).map((post) => post.post_id)).toEqual(
			storedPostIds(requestId).slice(0, 5),
		);
		expect(resultPageRequests(requestId)).toEqual([{ page: '1', per_page: '5' }]);
	});

	it('returns the whole response of a page', async () => {
		const requestId = await completedPhotoSearch();
		const result = await run(photoResults(requestId, { page: 2, output: 'envelope' }));
		const items = result.items();
		expect(items).toHaveLength(1);
		const envelope = PhotoEnvelope.parse(items[0]);
		expect(envelope.summary.total_posts).toBe(POST_COUNT);
		expect(envelope.pagination).toMatchObject({ total: POST_COUNT, page: 2 });
		expect(resultPageRequests(requestId)).toEqual([{ page: '2' }]);
	});

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

	it('reads 100 posts per page with Return All when no page size is set', async () => {
		const requestId = await completedPhotoSearch();
		const result = await run(photoResults(requestId, { returnAll: true }));
		expect(result.items()).toHaveLength(POST_COUNT);
		expect(resultPageRequests(requestId)).toHaveLength(3);
		expect(resultPageRequests(requestId).every((query) => query.per_page === '100')).toBe(true);
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

	it('gives no item for a completed search that found no posts', async () => {
		context.sim.configure({ photoPostCount: 0 });
		const requestId = await completedPhotoSearch();
		const result = await run(photoResults(requestId, { returnAll: true }));
		expect(result.status).toBe('success');
		expect(result.items()).toEqual([]);
	});

	it('reports an unknown request with the service error', async () => {
		const result = await run(photoResults('no-such-request'));
		expect(result.status).toBe('error');
		expect(result.nodeError(NAME)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			message: 'Not found',
		});
	});

	it('keeps the other items going with continue on fail', async () => {
		const requestId = await completedPhotoSearch();
		const result = await run(
			photoResults('={{ $json.id }}', { options: { perPage: 2 } }),
			[{ id: requestId }, { id: 'no-such-request' }, { id: requestId }],
			{ continueOnFail: true },
		);
		expect(result.status).toBe('success');
		const pairs = result.pairs();
		expect(pairs.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 2 },
		]);
		expect(pairs[2].json).toMatchObject({ error: 'Not found', httpCode: '404' });
	});
});

describe('Social Post → Get Results', () => {
	it('says the request is not completed yet', async () => {
		context.sim.configure({ completionDelayMs: 60_000 });
		const submitted = await run(socialScrape());
		const requestId = String(submitted.items()[0].request_id);

		const result = await run({ resource: 'socialPost', operation: 'getResults', requestId });
		expect(result.status).toBe('error');
		expect(result.nodeError(NAME)).toMatchObject({
			message: `Request ${requestId} is not completed yet (status "created")`,
		});
	});

	it('returns the whole response', async () => {
		const requestId = await completedScrape();
		const result = await run({
			resource: 'socialPost',
			operation: 'getResults',
			requestId,
			output: 'envelope',
		});
		const items = result.items();
		expect(items).toHaveLength(1);
		expect(SocialEnvelope.parse(items[0])).toMatchObject({
			request_id: requestId,
			status: 'completed',
		});
	});
});

describe('Video Request → Get Status', () => {
	it.each(['failed', 'login_required', 'completed'] as const)(
		'returns a %s request as a record, not as an error',
		async (status) => {
			const seeded = context.sim.seedVideoRequest({ status });
			const result = await run({
				resource: 'videoRequest',
				operation: 'getStatus',
				requestId: seeded.request_id,
			});
			expect(result.status).toBe('success');
			expect(result.items()).toEqual([seeded]);
		},
	);
});

describe('external identifiers of the scrapers', () => {
	it('sends one longer than 255 characters: spec section "Limits" sets that for the review API only', async () => {
		const photo = await run(
			photoSearch({ additionalFields: { externalIdentifier: 'p'.repeat(300) } }),
		);
		const scrape = await run(
			socialScrape({ additionalFields: { externalIdentifier: 's'.repeat(300) } }),
		);
		expect(photo.status).toBe('success');
		expect(scrape.status).toBe('success');
		const bodies = context.sim.requests().map((r) => (r.body as IDataObject).external_identifier);
		expect(bodies).toEqual(['p'.repeat(300), 's'.repeat(300)]);
	});
});
