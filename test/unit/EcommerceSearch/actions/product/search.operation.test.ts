import {
	buildSearchBody,
	searchOutputItems,
	type SearchInput,
} from '../../../../../nodes/EcommerceSearch/actions/product/search.operation';
import { MAX_PER_PAGE } from '../../../../../nodes/EcommerceSearch/actions/product/searchFields';
import { FieldReader } from '../../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../../helpers';

const read = new FieldReader(testNode, 1);
const CALLBACK = 'https://n8n.example.com/webhook/products';
const SEARCH_URL = 'https://www.amazon.com/s?k=headphones';
const build = (input: SearchInput) => buildSearchBody(read, { callbackUrl: CALLBACK, ...input });

describe('search body (spec section "E-commerce search")', () => {
	it.each<[string, SearchInput, object]>([
		[
			'a keyword search with only what was given',
			{ keyword: ' headphones ', sources: [], otherSources: '' },
			{ callback: CALLBACK, keyword: 'headphones' },
		],
		[
			'a URL search',
			{ searchUrl: SEARCH_URL, keyword: '' },
			{ callback: CALLBACK, url: SEARCH_URL },
		],
		[
			'the source list and the free entry merged, without duplicates',
			{ keyword: 'tv', sources: ['amazon', 'ebay'], otherSources: ' newegg, ebay,, ' },
			{ source: ['amazon', 'ebay', 'newegg'] },
		],
		[
			'sources as a comma-separated text from an expression',
			{ keyword: 'tv', sources: 'amazon,walmart' },
			{ source: ['amazon', 'walmart'] },
		],
		[
			'page, per_page and limit when given',
			{ keyword: 'tv', page: 3, perPage: '250', limit: 40 },
			{ page: 3, per_page: 250, limit: 40 },
		],
		...[1, 100, MAX_PER_PAGE].map((perPage): [string, SearchInput, object] => [
			`per_page ${perPage}`,
			{ keyword: 'tv', perPage },
			{ per_page: perPage },
		]),
		[
			'the filters there are',
			{ keyword: 'tv', filters: { bestseller: true } },
			{ filters: { bestseller: true } },
		],
	])('sends %s', (_name, input, body) => {
		const built = build(input);
		expect(built).toMatchObject(body);
		if ('callback' in body) expect(built).toEqual(body);
	});

	it('sends no source when none is chosen (all sources), and no filters when there are none', () => {
		expect(build({ keyword: 'tv', sources: [], otherSources: ' ' })).not.toHaveProperty('source');
		expect(build({ keyword: 'tv', filters: {} })).not.toHaveProperty('filters');
	});

	it.each<[SearchInput, string]>([
		[
			{ keyword: 'headphones', searchUrl: SEARCH_URL },
			'Keyword and Search Page URL are both filled: the service takes exactly one of them, so clear one (item 1)',
		],
		...[{}, { keyword: '  ', searchUrl: '' }, { keyword: null, searchUrl: undefined }].map(
			(input): [SearchInput, string] => [
				input,
				'Keyword or Search Page URL is required: fill exactly one of them (item 1)',
			],
		),
		[
			{ searchUrl: 'amazon.com/s?k=x' },
			'Search Page URL must be an http(s) URL, got "amazon.com/s?k=x"',
		],
		[{ searchUrl: SEARCH_URL, otherSources: 'ebay' }, 'Sources only apply to a keyword search'],
		[{ keyword: 'tv', sources: { amazon: true } }, 'Sources must be a list of source names'],
		...[undefined, '', '  '].map((callbackUrl): [SearchInput, string] => [
			{ keyword: 'tv', callbackUrl },
			'Callback URL is required: the service delivers the results to it (item 1)',
		]),
		[{ keyword: 'tv', callbackUrl: 'ftp://x.example.com' }, 'Callback URL must be an http(s) URL'],
		[{ keyword: 'tv', perPage: MAX_PER_PAGE + 1 }, 'Results per Page must be at most 500, got 501'],
		[{ keyword: 'tv', perPage: 0 }, 'Results per Page must be at least 1, got 0'],
		[{ keyword: 'tv', perPage: 2.5 }, 'Results per Page must be a whole number'],
		[{ keyword: 'tv', page: 0 }, 'Page must be at least 1'],
		[{ keyword: 'tv', limit: 0 }, 'Limit must be at least 1'],
		[{ keyword: 'tv', limit: 'ten' }, 'Limit must be a whole number'],
	])('refuses %j', (input, message) => {
		expect(() => build(input)).toThrow(message);
	});
});

describe('search output', () => {
	const envelope = {
		request_id: 'req-1',
		status: 'success',
		credits_used: 2,
		results: [
			{ unique_id: 'a', name: 'A' },
			{ unique_id: 'b', name: 'B' },
		],
		pagination: { current_page: 1, page_size: 100, total_pages: 1 },
		summary: { total_results: 2 },
	};

	it('gives one item per product with the request_id', () => {
		expect(searchOutputItems(envelope, 'products', false)).toEqual([
			{ request_id: 'req-1', unique_id: 'a', name: 'A' },
			{ request_id: 'req-1', unique_id: 'b', name: 'B' },
		]);
	});

	it('adds the summary item last', () => {
		const items = searchOutputItems(envelope, 'products', true);
		expect(items).toHaveLength(3);
		expect(items[2]).toEqual({
			request_id: 'req-1',
			status: 'success',
			credits_used: 2,
			pagination: envelope.pagination,
			summary: envelope.summary,
		});
	});

	it('gives the whole envelope as one item', () => {
		expect(searchOutputItems(envelope, 'envelope', true)).toEqual([envelope]);
	});

	it('gives an acknowledgement as it is, whatever the output mode', () => {
		const ack = { request_id: 'req-2', status: 'created', message: 'Search created' };
		expect(searchOutputItems(ack, 'products', true)).toEqual([ack]);
		expect(searchOutputItems(ack, 'envelope', false)).toEqual([ack]);
	});

	it('gives no product item for an empty result, but still the summary when asked', () => {
		const empty = { ...envelope, results: [] };
		expect(searchOutputItems(empty, 'products', false)).toEqual([]);
		expect(searchOutputItems(empty, 'products', true)).toHaveLength(1);
	});
});
