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
	it('sends a keyword search with only what was given', () => {
		expect(build({ keyword: ' headphones ', sources: [], otherSources: '' })).toEqual({
			callback: CALLBACK,
			keyword: 'headphones',
		});
	});

	it('sends a URL search', () => {
		expect(build({ searchUrl: SEARCH_URL, keyword: '' })).toEqual({
			callback: CALLBACK,
			url: SEARCH_URL,
		});
	});

	describe('url / keyword: exactly one', () => {
		it('refuses both', () => {
			expect(() => build({ keyword: 'headphones', searchUrl: SEARCH_URL })).toThrow(
				'Keyword and Search Page URL are both filled: the service takes exactly one of them, so clear one (item 1)',
			);
		});

		it.each([{}, { keyword: '  ', searchUrl: '' }, { keyword: null, searchUrl: undefined }])(
			'refuses neither (%j)',
			(input) => {
				expect(() => build(input)).toThrow(
					'Keyword or Search Page URL is required: fill exactly one of them (item 1)',
				);
			},
		);

		it('refuses a URL that is not http(s)', () => {
			expect(() => build({ searchUrl: 'amazon.com/s?k=x' })).toThrow(
				'Search Page URL must be an http(s) URL, got "amazon.com/s?k=x"',
			);
		});
	});

	describe('sources', () => {
		it('merges the list and the free entry, without duplicates', () => {
			expect(
				build({ keyword: 'tv', sources: ['amazon', 'ebay'], otherSources: ' newegg, ebay,, ' })
					.source,
			).toEqual(['amazon', 'ebay', 'newegg']);
		});

		it('accepts a comma-separated text from an expression', () => {
			expect(build({ keyword: 'tv', sources: 'amazon,walmart' }).source).toEqual([
				'amazon',
				'walmart',
			]);
		});

		it('sends no source when none is chosen (all sources)', () => {
			expect(build({ keyword: 'tv', sources: [], otherSources: ' ' })).not.toHaveProperty('source');
		});

		it('refuses sources with a Search Page URL', () => {
			expect(() => build({ searchUrl: SEARCH_URL, otherSources: 'ebay' })).toThrow(
				'Sources only apply to a keyword search',
			);
		});

		it('refuses a source list of the wrong type', () => {
			expect(() => build({ keyword: 'tv', sources: { amazon: true } })).toThrow(
				'Sources must be a list of source names',
			);
		});
	});

	describe('callback', () => {
		it.each([undefined, '', '  '])('is required (%j)', (callbackUrl) => {
			expect(() => build({ keyword: 'tv', callbackUrl })).toThrow(
				'Callback URL is required: the service delivers the results to it (item 1)',
			);
		});

		it('must be an http(s) URL', () => {
			expect(() => build({ keyword: 'tv', callbackUrl: 'ftp://x.example.com' })).toThrow(
				'Callback URL must be an http(s) URL',
			);
		});
	});

	describe('page, per_page and limit', () => {
		it('sends them when given', () => {
			expect(build({ keyword: 'tv', page: 3, perPage: '250', limit: 40 })).toMatchObject({
				page: 3,
				per_page: 250,
				limit: 40,
			});
		});

		it.each([1, 100, MAX_PER_PAGE])('accepts per_page %d', (perPage) => {
			expect(build({ keyword: 'tv', perPage }).per_page).toBe(perPage);
		});

		it.each([
			[MAX_PER_PAGE + 1, `Results per Page must be at most 500, got 501`],
			[0, 'Results per Page must be at least 1, got 0'],
			[2.5, 'Results per Page must be a whole number'],
		])('refuses per_page %j', (perPage, message) => {
			expect(() => build({ keyword: 'tv', perPage })).toThrow(message);
		});

		it.each([
			[{ page: 0 }, 'Page must be at least 1'],
			[{ limit: 0 }, 'Limit must be at least 1'],
			[{ limit: 'ten' }, 'Limit must be a whole number'],
		])('refuses %j', (input, message) => {
			expect(() => build({ keyword: 'tv', ...input })).toThrow(message);
		});
	});

	it('puts the filters in the body only when there are some', () => {
		expect(build({ keyword: 'tv', filters: {} })).not.toHaveProperty('filters');
		expect(build({ keyword: 'tv', filters: { bestseller: true } }).filters).toEqual({
			bestseller: true,
		});
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
