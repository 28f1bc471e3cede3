import type { Product } from '../../simulator/data';
import {
	EcommerceEnvelope,
	type EcommerceEnvelopeBody,
	type EcommerceProductBody,
	SchedulingError,
	SubmitAck,
} from '../../simulator/schemas';
import { useSimulator } from './helpers';

const suite = useSimulator();
let all: EcommerceProductBody[];
beforeAll(async () => {
	all = (await search({ per_page: 500 })).results;
});

const post = (fields: Record<string, unknown>) =>
	suite.call('POST ecommerce /search', {
		body: { callback: suite.receiver.url, keyword: 'headphones', ...fields },
	});
async function search(fields: Record<string, unknown>): Promise<EcommerceEnvelopeBody> {
	const response = await post(fields);
	if (response.status !== 200) throw new Error(response.text);
	return EcommerceEnvelope.parse(response.body);
}

// Deliveries of earlier tests may still reach the receiver after a reset, so look payloads up by id.
const receivedFor = (requestId: string) =>
	suite.receiver.received.find((r) => (r.body as { request_id?: string }).request_id === requestId)
		?.body;

const ids = (products: EcommerceProductBody[]) => products.map((p) => p.unique_id);
const filtered = async (filters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
	(await search({ per_page: 500, filters, ...extra })).results;

describe('validation', () => {
	it.each([
		[{ callback: undefined }, /^callback is required/],
		[{ callback: 'nope' }, /^callback: must be an http\(s\) URL/],
		[{ url: 'https://www.amazon.com/s?k=x' }, /exactly one of url and keyword/],
		[{ keyword: undefined }, /exactly one of url and keyword/],
		[{ per_page: 0 }, /^per_page: /],
		[{ per_page: 501 }, /^per_page: /],
		[{ page: 0 }, /^page: /],
		[{ page: 1.5 }, /^page: /],
		[{ limit: 0 }, /^limit: /],
		[{ source: 3 }, /^source: must be a string or/],
		[{ filters: { rating: { between: [1, 2] } } }, /^filters\.rating: unknown field\(s\) between/],
		[{ filters: { full_price: { lt: '10' } } }, /^filters\.full_price\.lt: /],
		[{ filters: { sponsored: 'yes' } }, /^filters\.sponsored: /],
		[{ filters: { name: ['a', 1] } }, /^filters\.name: must be a string or/],
		[{ filters: { ranking: { pages: '1' } } }, /^filters\.ranking\.pages: /],
		[{ filters: { color: 'red' } }, /^filters: unknown field\(s\) color/],
		[{ sort: 'price' }, /unknown field\(s\) sort/],
		[
			{ keyword: undefined, url: 'https://www.amazon.com/some-lamp/dp/B000123' },
			/product pages cannot be processed/,
		],
		[{ keyword: undefined, url: 'https://shop.example.com/search?q=lamp' }, /unsupported source/],
	])('refuses %p with 400 naming the field', async (fields, details) => {
		const before = suite.sim.counts().ecommerceSearches;
		const response = await post(fields);
		expect(response.status).toBe(400);
		const error = SchedulingError.parse(response.body);
		expect(error.message).toBe('Invalid request');
		expect(error.details).toMatch(details);
		expect(suite.sim.counts().ecommerceSearches).toBe(before);
	});
});

describe('results, filters and pagination', () => {
	it('finds productCount products over every source with the 2.2 fields', () => {
		expect(all).toHaveLength(250);
		expect(new Set(all.map((p) => p.source))).toEqual(
			new Set(['amazon', 'walmart', 'ebay', 'target', 'bestbuy']),
		);
		expect(all.map((p) => p.ranking)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
		expect(all.some((p) => p.metadata === null)).toBe(true);
		expect(all.some((p) => p.reduced_price === null)).toBe(true);
		expect(all.some((p) => p.metadata?.overall_pick === true)).toBe(true);
	});

	it('is deterministic', async () => {
		expect(ids((await search({ per_page: 500 })).results)).toEqual(ids(all));
	});

	it('name: every value must be contained (case-insensitive)', async () => {
		const word = all[0].name.split(' ')[1];
		const other = all[0].name.split(' ')[2];
		const one = await filtered({ name: word.toUpperCase() });
		expect(ids(one)).toEqual(ids(all.filter((p) => p.name.includes(word))));
		const both = await filtered({ name: [word, other] });
		expect(both.length).toBeGreaterThan(0);
		expect(both.length).toBeLessThan(one.length);
		expect(ids(both)).toEqual(
			ids(all.filter((p) => p.name.includes(word) && p.name.includes(other))),
		);
	});

	it('url: every value must be contained', async () => {
		const result = await filtered({ url: ['amazon.com', '/dp/'] });
		expect(result.length).toBe(all.filter((p) => p.source === 'amazon').length);
	});

	it('ranges: lt/lte/gt/gte combine, missing values never match', async () => {
		const price = await filtered({ full_price: { gte: 100, lt: 200 } });
		expect(ids(price)).toEqual(ids(all.filter((p) => p.full_price >= 100 && p.full_price < 200)));
		const reduced = await filtered({ reduced_price: { gt: 0 } });
		expect(ids(reduced)).toEqual(ids(all.filter((p) => p.reduced_price !== null)));
		const bought = await filtered({ bought_last_month: { lte: 500 } });
		expect(ids(bought)).toEqual(
			ids(all.filter((p) => p.metadata && p.metadata.bought_last_month <= 500)),
		);
		const rating = await filtered({ rating: { gt: 4 }, review_count: { lte: 10000 } });
		expect(ids(rating)).toEqual(ids(all.filter((p) => p.rating > 4 && p.review_count <= 10000)));
	});

	it('eq overrides the other operators', async () => {
		const value = all[7].rating;
		const result = await filtered({ rating: { eq: value, lt: 0, gt: 100 } });
		expect(result.length).toBeGreaterThan(0);
		expect(ids(result)).toEqual(ids(all.filter((p) => p.rating === value)));
	});

	it('flags: sponsored, bestseller, overall_pick; prime only concerns amazon products', async () => {
		expect(ids(await filtered({ sponsored: true }))).toEqual(ids(all.filter((p) => p.sponsored)));
		expect(ids(await filtered({ bestseller: false }))).toEqual(
			ids(all.filter((p) => !p.bestseller)),
		);
		expect(ids(await filtered({ overall_pick: true }))).toEqual(
			ids(all.filter((p) => p.metadata?.overall_pick === true)),
		);
		const prime = await filtered({ prime: true });
		const amazonPrime = (all as Product[]).filter(
			(p) => p.source === 'amazon' && p.metadata?.prime === true,
		);
		expect(prime.filter((p) => p.source === 'amazon')).toHaveLength(amazonPrime.length);
		expect(prime.filter((p) => p.source !== 'amazon')).toHaveLength(
			all.filter((p) => p.source !== 'amazon').length,
		);
	});

	it('ranking pages and positions are read against per_page', async () => {
		const pages = await filtered({ ranking: { pages: [2, 4] } }, { per_page: 10 });
		// per_page 10 also pages the answer: ask for the first page of the matches.
		expect(pages.map((p) => p.ranking)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
		const all2and4 = await search({ per_page: 20, filters: { ranking: { pages: [2, 4] } } });
		expect(all2and4.summary.total_results).toBe(40);
		const positions = await search({ per_page: 50, filters: { ranking: { positions: 1 } } });
		expect(positions.results.map((p) => p.ranking)).toEqual([1, 51, 101, 151, 201]);
	});

	it('limit caps what is found, before pagination', async () => {
		const limited = await search({ limit: 30, per_page: 25, page: 2 });
		expect(limited.summary.total_results).toBe(30);
		expect(limited.results.map((p) => p.ranking)).toEqual([26, 27, 28, 29, 30]);
		expect(limited.pagination).toEqual({ current_page: 2, page_size: 25, total_pages: 2 });
		expect(limited.credits_used).toBe(30);
	});

	it('pagination is exact: pages partition the results, past the end is empty', async () => {
		const pages = await Promise.all([1, 2, 3, 4].map((page) => search({ page })));
		expect(pages.map((p) => p.results.length)).toEqual([100, 100, 50, 0]);
		expect(pages[0].pagination).toEqual({ current_page: 1, page_size: 100, total_pages: 3 });
		expect(pages[3].pagination.current_page).toBe(4);
		expect(ids(pages.flatMap((p) => p.results))).toEqual(ids(all));
	});

	it('summary describes everything found, per source', async () => {
		const result = await search({ source: ['ebay', 'target'], per_page: 7 });
		const found = (await search({ source: ['ebay', 'target'], per_page: 500 })).results;
		expect(result.summary.total_results).toBe(250);
		expect(result.summary.products_per_source).toEqual([
			{ source: 'ebay', count: 125 },
			{ source: 'target', count: 125 },
		]);
		const volume = found.reduce((sum, p) => sum + p.review_count, 0);
		expect(result.summary.review_volume).toBe(volume);
		expect(result.summary.avg_review_volume).toBeCloseTo(volume / 250, 2);
		expect(result.summary.avg_rating).toBeCloseTo(found.reduce((s, p) => s + p.rating, 0) / 250, 2);
	});

	it('a search-page url searches that one source', async () => {
		const result = await search({
			keyword: undefined,
			url: 'https://www.walmart.com/search?q=desk+lamp',
			per_page: 500,
		});
		expect(result.results).toHaveLength(250);
		expect(
			result.results.every((p) => p.source === 'walmart' && p.name.startsWith('Desk lamp')),
		).toBe(true);
		expect(result.summary.products_per_source).toEqual([{ source: 'walmart', count: 250 }]);
	});
});

describe('callback and response mode', () => {
	it('POSTs every product found to the callback in one envelope', async () => {
		const response = await search({ per_page: 10, filters: { sponsored: true } });
		const deliveries = await suite.sim.waitForDeliveries(1, 2000);
		expect(deliveries).toHaveLength(1);
		expect(deliveries[0]).toMatchObject({
			kind: 'productSearch',
			state: 'delivered',
			ref: response.request_id,
		});
		const payload = EcommerceEnvelope.parse(receivedFor(response.request_id));
		const expected = all.filter((p) => p.sponsored).length;
		expect(payload.request_id).toBe(response.request_id);
		expect(payload.results).toHaveLength(expected);
		expect(payload.pagination).toEqual({ current_page: 1, page_size: expected, total_pages: 1 });
		expect(payload.summary).toEqual(response.summary);
	});

	it("answers only an acknowledgement with ecommerceResponse 'ack'", async () => {
		suite.sim.configure({ ecommerceResponse: 'ack' });
		const ack = SubmitAck.parse((await post({ keyword: 'tent' })).body);
		expect(ack.status).toBe('created');
		await suite.sim.waitForDeliveries(1, 2000);
		const payload = EcommerceEnvelope.parse(receivedFor(ack.request_id));
		expect(payload.request_id).toBe(ack.request_id);
		expect(payload.results).toHaveLength(250);
	});
});
