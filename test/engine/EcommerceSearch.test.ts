import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { EcommerceSearch } from '../../nodes/EcommerceSearch/EcommerceSearch.node';
import { EcommerceEnvelope, SubmitAck } from '../../simulator/schemas';
import { credentialsFor, credentialTypes, useSimulator } from './fixtures';
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

describe('Product → Search', () => {
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
