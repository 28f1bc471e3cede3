import type { IDataObject } from 'n8n-workflow';

import type { FieldReader } from '../../../shared/outgoing/validation';
import { buildFilters } from './filters';

export const MAX_PER_PAGE = 500;

/** The spec does not list the valid sources: these are offered, any other name can be typed. */
export const COMMON_SOURCES = ['amazon', 'bestbuy', 'ebay', 'target', 'walmart'];

export interface SearchInput {
	keyword?: unknown;
	searchUrl?: unknown;
	sources?: unknown;
	otherSources?: unknown;
	callbackUrl?: unknown;
	page?: unknown;
	perPage?: unknown;
	limit?: unknown;
	filters?: unknown;
}

function sourceNames(read: FieldReader, label: string, value: unknown): string[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value) && typeof value !== 'string') {
		throw read.fail(label, 'must be a list of source names');
	}
	const entries: unknown[] = typeof value === 'string' ? value.split(',') : value;
	return entries
		.map((entry) => read.optionalString(label, entry))
		.filter((entry): entry is string => entry !== undefined);
}

/**
 * Builds the POST /search body of the spec's "E-commerce search"; every rule is checked before
 * anything is sent.
 */
export function buildSearchBody(read: FieldReader, input: SearchInput): IDataObject {
	const keyword = read.optionalString('Keyword', input.keyword);
	const url = read.optionalUrl('Search Page URL', input.searchUrl);
	if (keyword !== undefined && url !== undefined) {
		throw read.fail(
			'Keyword and Search Page URL',
			'are both filled: the service takes exactly one of them, so clear one',
		);
	}
	if (keyword === undefined && url === undefined) {
		throw read.fail('Keyword or Search Page URL', 'is required: fill exactly one of them');
	}

	const sources = [
		...new Set([
			...sourceNames(read, 'Sources', input.sources),
			...sourceNames(read, 'Other Sources', input.otherSources),
		]),
	];
	if (url !== undefined && sources.length > 0) {
		throw read.fail(
			'Sources',
			'only apply to a keyword search: a Search Page URL already names its source, so clear Sources and Other Sources',
		);
	}

	const callback = read.optionalUrl('Callback URL', input.callbackUrl);
	if (callback === undefined) {
		throw read.fail('Callback URL', 'is required: the service delivers the results to it');
	}

	const body: IDataObject = { callback };
	if (keyword !== undefined) body.keyword = keyword;
	if (url !== undefined) body.url = url;
	if (sources.length > 0) body.source = sources;
	const filters = buildFilters(read, input.filters);
	if (filters !== undefined) body.filters = filters;
	const page = read.optionalInteger('Page', input.page, { min: 1 });
	if (page !== undefined) body.page = page;
	const perPage = read.optionalInteger('Results per Page', input.perPage, {
		min: 1,
		max: MAX_PER_PAGE,
	});
	if (perPage !== undefined) body.per_page = perPage;
	const limit = read.optionalInteger('Limit', input.limit, { min: 1 });
	if (limit !== undefined) body.limit = limit;
	return body;
}

export type SearchOutput = 'products' | 'envelope';

/**
 * Turns the service's answer into output items. An answer without a `results` list is an
 * acknowledgement (the results go to the callback only), and is returned as it is.
 */
export function searchOutputItems(
	response: IDataObject,
	output: SearchOutput,
	includeSummary: boolean,
): IDataObject[] {
	if (!Array.isArray(response.results) || output === 'envelope') return [response];
	const products = (response.results as IDataObject[]).map((product) => ({
		request_id: response.request_id,
		...product,
	}));
	if (!includeSummary) return products;
	const { results: _results, ...summary } = response;
	return [...products, summary];
}
