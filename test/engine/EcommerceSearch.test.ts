import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { EcommerceSearch } from '../../nodes/EcommerceSearch/EcommerceSearch.node';
import {
	EcommerceEnvelope,
	EcommerceProduct,
	EcommerceSearchRequest,
	SubmitAck,
} from '../../simulator/schemas';
import { credentialsFor, credentialTypes, startReceiver, useSimulator } from './fixtures';
import { type NodeSpec, runWorkflow } from './harness';

const context = useSimulator({ productCount: 250 });
const NAME = 'E-Commerce Search';
const CALLBACK = 'http://127.0.0.1:9/unused-callback';

async function run(
	parameters: IDataObject,
	inputItems: IDataObject[] = [{}],
	node: Partial<NodeSpec> = {},
) {
	const result = await runWorkflow({
		nodes: [
			{
				name: NAME,
				type: 'n8n-nodes-review-scraping.ecommerceSearch',
				parameters: {
					resource: 'product',
					operation: 'search',
					callbackUrl: CALLBACK,
					...parameters,
				},
				// The tests below were written for version 1.1; version 1.2's changes have their own.
				typeVersion: 1.1,
				...node,
			},
		],
		nodeTypes: { 'n8n-nodes-review-scraping.ecommerceSearch': new EcommerceSearch() },
		credentialTypes,
		credentials: credentialsFor(context.sim),
		inputItems: inputItems.map((json): INodeExecutionData => ({ json })),
	});
	return { ...result, items: () => result.json(NAME), pairs: () => result.output(NAME)[0] };
}

const searches = () => context.sim.requests().filter((request) => request.path === '/search');
const withoutRequestId = ({ request_id: _requestId, ...product }: IDataObject) => product;

describe('Product → Search', () => {
	it('sends keyword, sources, every kind of filter and paging, and returns one item per product', async () => {
		const result = await run({
			keyword: 'headphones',
			sources: ['amazon', 'ebay'],
			otherSources: 'walmart',
			filters: {
				nameContains: ['headphones'],
				fullPrice: {
					condition: [
						{ operator: 'gte', value: 5 },
						{ operator: 'lt', value: 900 },
					],
				},
				rating: { condition: [{ operator: 'gte', value: 2 }] },
				sponsored: false,
			},
			additionalFields: { page: 1, perPage: 20, limit: 60 },
		});

		expect(result.status).toBe('success');
		const [request] = searches();
		expect(request.method).toBe('POST');
		expect(request.headers['x-api-key']).toBeDefined();
		expect(request.body).toEqual({
			callback: CALLBACK,
			keyword: 'headphones',
			source: ['amazon', 'ebay', 'walmart'],
			filters: {
				name: 'headphones',
				full_price: { gte: 5, lt: 900 },
				rating: { gte: 2 },
				sponsored: false,
			},
			page: 1,
			per_page: 20,
			limit: 60,
		});
		expect(EcommerceSearchRequest.safeParse(request.body).success).toBe(true);

		const items = result.items();
		expect(items.length).toBeGreaterThan(0);
		expect(items.length).toBeLessThanOrEqual(20);
		const requestIds = new Set(items.map((item) => item.request_id));
		expect(requestIds.size).toBe(1);
		expect(typeof [...requestIds][0]).toBe('string');
		for (const item of items) {
			const product = EcommerceProduct.parse(withoutRequestId(item));
			expect(['amazon', 'ebay', 'walmart']).toContain(product.source);
			expect(product.name.toLowerCase()).toContain('headphones');
			expect(product.full_price).toBeGreaterThanOrEqual(5);
			expect(product.full_price).toBeLessThan(900);
			expect(product.rating).toBeGreaterThanOrEqual(2);
			expect(product.sponsored).toBe(false);
		}
	});

	it('sends eq alone, flags, and ranking pages and positions as numbers or lists', async () => {
		const result = await run({
			keyword: 'lamp',
			filters: {
				reviewCount: { condition: [{ operator: 'gt', value: 0 }] },
				bestseller: false,
				rankingPages: '1, 2',
				rankingPositions: [1, 2, 3],
			},
		});
		expect(result.status).toBe('success');
		expect(searches()[0].body).toMatchObject({
			filters: {
				review_count: { gt: 0 },
				bestseller: false,
				ranking: { pages: [1, 2], positions: [1, 2, 3] },
			},
		});
		const items = result.items();
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) {
			expect(item.bestseller).toBe(false);
			expect([1, 2, 3, 101, 102, 103]).toContain(item.ranking);
		}

		const exact = await run({
			keyword: 'lamp',
			filters: { boughtLastMonth: { condition: [{ operator: 'eq', value: 0 }] }, rankingPages: 1 },
		});
		expect(searches()[1].body).toMatchObject({
			filters: { bought_last_month: { eq: 0 }, ranking: { pages: 1 } },
		});
		for (const item of exact.items()) {
			expect((item.metadata as IDataObject | null)?.bought_last_month ?? 0).toBe(0);
		}
	});

	it('searches by search-page URL without sources', async () => {
		const url = 'https://www.amazon.com/s?k=desk+lamp';
		const result = await run({ searchUrl: url, additionalFields: { perPage: 10 } });
		expect(result.status).toBe('success');
		expect(searches()[0].body).toEqual({ callback: CALLBACK, url, per_page: 10 });
		const items = result.items();
		expect(items).toHaveLength(10);
		expect(items.every((item) => item.source === 'amazon')).toBe(true);
	});

	it('version 1.2: Return All / Limit at the top, the limit sent unless Return All', async () => {
		const limited = await run({ keyword: 'lamp', limit: 30 }, [{}], { typeVersion: 1.2 });
		expect(limited.status).toBe('success');
		expect(searches()[0].body).toEqual({ callback: CALLBACK, keyword: 'lamp', limit: 30 });
		const byDefault = await run({ keyword: 'lamp' }, [{}], { typeVersion: 1.2 });
		expect(byDefault.status).toBe('success');
		expect(searches()[1].body).toMatchObject({ limit: 50 });
		const all = await run(
			{ keyword: 'lamp', returnAll: true, additionalFields: { limit: 3 } },
			[{}],
			{
				typeVersion: 1.2,
			},
		);
		expect(all.status).toBe('success');
		expect(searches()[2].body).not.toHaveProperty('limit');
	});

	it('adds a summary item after the products when asked', async () => {
		const result = await run({
			keyword: 'mug',
			additionalFields: { perPage: 15 },
			includeSummary: true,
		});
		const items = result.items();
		expect(items).toHaveLength(16);
		const summary = items[15];
		expect(summary).not.toHaveProperty('results');
		expect(summary).toMatchObject({
			request_id: items[0].request_id,
			status: 'success',
			pagination: { current_page: 1, page_size: 15 },
			summary: { total_results: 250 },
		});
		expect(typeof summary.credits_used).toBe('number');
	});

	it('returns the whole envelope as one item', async () => {
		const result = await run({ keyword: 'mug', additionalFields: { page: 3 }, output: 'envelope' });
		const items = result.items();
		expect(items).toHaveLength(1);
		const envelope = EcommerceEnvelope.parse(items[0]);
		expect(envelope.results).toHaveLength(50);
		expect(envelope.pagination).toEqual({ current_page: 3, page_size: 100, total_pages: 3 });
	});

	it('returns the acknowledgement when the service only acknowledges the search', async () => {
		context.sim.configure({ ecommerceResponse: 'ack' });
		const result = await run({ keyword: 'mug', includeSummary: true });
		expect(result.status).toBe('success');
		const items = result.items();
		expect(items).toHaveLength(1);
		expect(SubmitAck.parse(items[0])).toMatchObject({ status: 'created' });
	});

	it('hands the callback URL to the service, which delivers the full result there', async () => {
		const receiver = await startReceiver();
		try {
			const result = await run({
				keyword: 'kettle',
				callbackUrl: `${receiver.url}/products`,
				additionalFields: { perPage: 5, limit: 12 },
			});
			const [first] = result.items();
			await context.sim.waitForDeliveries(1, 5000);
			expect(receiver.received).toHaveLength(1);
			expect(receiver.received[0].url).toBe('/products');
			expect(receiver.received[0].body).toMatchObject({ request_id: first.request_id });
			expect(receiver.received[0].body.results).toHaveLength(12);
		} finally {
			await receiver.close();
		}
	});

	it('reports the service refusal with its message and details', async () => {
		const result = await run({ keyword: 'mug', otherSources: 'nosuchshop' });
		expect(result.status).toBe('error');
		expect(result.nodeError(NAME)).toMatchObject({
			name: 'NodeApiError',
			httpCode: '400',
			message: 'Invalid request',
			description: expect.stringContaining('unknown source nosuchshop'),
		});
	});

	it('retries a search the service refused with 429', async () => {
		context.sim.injectFault({ api: 'ecommerce', kind: '429', retryAfterSeconds: 0 });
		const result = await run({ keyword: 'mug', additionalFields: { perPage: 3 } });
		expect(result.status).toBe('success');
		expect(result.items()).toHaveLength(3);
		expect(searches()).toHaveLength(2);
		expect(context.sim.counts().ecommerceSearches).toBe(1);
	});

	describe('refuses bad input before sending anything', () => {
		it.each([
			[
				'Keyword and Search Page URL are both filled',
				{ keyword: 'mug', searchUrl: 'https://www.amazon.com/s?k=mug' },
			],
			['Keyword or Search Page URL is required', { keyword: '', searchUrl: '' }],
			// An expression that yields nothing gets past n8n's own required-parameter check.
			['Callback URL is required', { keyword: 'mug', callbackUrl: '={{ "" }}' }],
			[
				'Results per Page must be at most 500',
				{ keyword: 'mug', additionalFields: { perPage: 501 } },
			],
			[
				'Sources only apply to a keyword search',
				{ searchUrl: 'https://www.amazon.com/s?k=mug', sources: ['ebay'] },
			],
			[
				'Rating combines "Equal" with "Greater Than"',
				{
					keyword: 'mug',
					filters: {
						rating: {
							condition: [
								{ operator: 'eq', value: 4 },
								{ operator: 'gt', value: 3 },
							],
						},
					},
				},
			],
			['Ranking Pages must be at least 1', { keyword: 'mug', filters: { rankingPages: '0' } }],
		])('refuses with "%s"', async (message, parameters) => {
			const result = await run(parameters);
			expect(result.status).toBe('error');
			expect(result.nodeError(NAME)).toMatchObject({
				name: 'NodeOperationError',
				message: expect.stringContaining(message),
			});
			expect(context.sim.requests()).toHaveLength(0);
		});
	});

	it('keeps valid items going with continue on fail, one output group per input item', async () => {
		const result = await run(
			{
				keyword: '={{ $json.keyword }}',
				searchUrl: '={{ $json.url }}',
				additionalFields: { perPage: 2 },
			},
			[
				{ keyword: 'mug', url: '' },
				{ keyword: 'mug', url: 'https://www.amazon.com/s?k=mug' },
				{ keyword: '', url: 'https://www.walmart.com/search?q=lamp' },
			],
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
		expect(pairs[2].json.error).toMatch(/Keyword and Search Page URL are both filled.*\(item 1\)$/);
		expect(pairs[3].json.source).toBe('walmart');
		expect(searches()).toHaveLength(2);
	});
});
