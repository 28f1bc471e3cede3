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
const build = (input: SearchInput) => buildSearchBody(read, { callbackUrl: CALLBACK, ...input });

describe('search body (spec section "E-commerce search")', () => {
	it.each<[string, SearchInput, object]>([
		[
			'a trimmed keyword, and no source or filters when the lists are empty',
			{ keyword: ' headphones ', sources: [], otherSources: ' ', filters: {} },
			{ callback: CALLBACK, keyword: 'headphones' },
		],
		[
			'sources as a comma-separated text from an expression',
			{ keyword: 'tv', sources: 'amazon,walmart' },
			{ callback: CALLBACK, keyword: 'tv', source: ['amazon', 'walmart'] },
		],
		[
			`per_page ${MAX_PER_PAGE}`,
			{ keyword: 'tv', perPage: MAX_PER_PAGE },
			{ callback: CALLBACK, keyword: 'tv', per_page: MAX_PER_PAGE },
		],
	])('sends %s', (_name, input, body) => {
		expect(build(input)).toEqual(body);
	});

	// The other refusals are run through the engine in test/engine/badInput.test.ts.
	it.each<[SearchInput, string]>([
		[
			{ keyword: null, searchUrl: undefined },
			'Keyword or Search Page URL is required: fill exactly one of them (item 1)',
		],
		[
			{ searchUrl: 'amazon.com/s?k=x' },
			'Search Page URL must be an http(s) URL, got "amazon.com/s?k=x"',
		],
		[{ keyword: 'tv', sources: { amazon: true } }, 'Sources must be a list of source names'],
		[
			{ keyword: 'tv', callbackUrl: '  ' },
			'Callback URL is required: the service delivers the results to it (item 1)',
		],
		[{ keyword: 'tv', perPage: 2.5 }, 'Results per Page must be a whole number'],
		[{ keyword: 'tv', limit: 'ten' }, 'Limit must be a whole number'],
	])('refuses %j', (input, message) => {
		expect(() => build(input)).toThrow(message);
	});
});

it('gives no product item for an empty result, but still the summary when asked', () => {
	const empty = {
		request_id: 'req-1',
		status: 'success',
		results: [],
		pagination: { current_page: 1, page_size: 100, total_pages: 0 },
		summary: { total_results: 0 },
	};
	expect(searchOutputItems(empty, 'products', false)).toEqual([]);
	expect(searchOutputItems(empty, 'products', true)).toEqual([
		{
			request_id: 'req-1',
			status: 'success',
			pagination: empty.pagination,
			summary: empty.summary,
		},
	]);
});
