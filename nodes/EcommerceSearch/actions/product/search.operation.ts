import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { withoutKeys } from '../../../shared/json';
import {
	additionalFields,
	limitField,
	outputField,
	returnAllField,
} from '../../../shared/outgoing/descriptions';
import type { PreparedItem } from '../../../shared/outgoing/router';
import { FieldReader } from '../../../shared/outgoing/validation';
import { withWaitForCompletion } from '../../../shared/waiting/fields';
import { oneResumedItem, type Waiting } from '../../../shared/waiting/record';
import { productFiltersField } from './filterFields';
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
	return [...products, withoutKeys(response, 'results')];
}

const SOURCE_LABELS: Record<string, string> = {
	amazon: 'Amazon',
	bestbuy: 'Best Buy',
	ebay: 'eBay',
	target: 'Target',
	walmart: 'Walmart',
};

/**
 * A search answered with its results at once has nothing to wait for. Waited-for products come as
 * one item from version 1.1, which n8n can link to the one waiting input item; version 1 gave one
 * item per product and keeps doing so for workflows saved with it.
 */
export const waiting: Waiting = {
	callbackParameter: 'callbackUrl',
	idField: 'request_id',
	answeredAtOnce: (answer) => Array.isArray(answer.results),
	resumedItems: (envelope, node, parameter) =>
		node.typeVersion >= 1.1
			? oneResumedItem(envelope)
			: searchOutputItems(
					envelope,
					parameter('output', 'products') as SearchOutput,
					parameter('includeSummary', false) as boolean,
				),
};

const LIMIT_DESCRIPTION =
	'Max number of products the service finds for this search, counted over all its pages (sent as limit)';

const PAGING_FIELDS: INodeProperties[] = [
	{
		displayName: 'Page',
		name: 'page',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'Page of results to return (the service starts at 1)',
	},
	{
		displayName: 'Results per Page',
		name: 'perPage',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_PER_PAGE, numberPrecision: 0 },
		default: 100,
		description: `Number of products per page, at most ${MAX_PER_PAGE} (the service uses 100 when not set)`,
	},
];

const properties: INodeProperties[] = [
	{
		displayName: 'Fill exactly one of Keyword and Search Page URL',
		name: 'searchNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Keyword',
		name: 'keyword',
		type: 'string',
		default: '',
		placeholder: 'wireless headphones',
		description: 'Words to search for across the chosen sources',
	},
	{
		displayName: 'Search Page URL',
		name: 'searchUrl',
		type: 'string',
		default: '',
		placeholder: 'https://www.amazon.com/s?k=wireless+headphones',
		description:
			'Address of a search-results page of a supported source. Product pages cannot be processed.',
	},
	{
		displayName: 'Sources',
		name: 'sources',
		type: 'multiOptions',
		options: COMMON_SOURCES.map((source) => ({ name: SOURCE_LABELS[source], value: source })),
		default: [],
		description:
			'Sources searched by keyword. Leave empty (and Other Sources too) to search all sources. Not used with a Search Page URL.',
	},
	{
		displayName: 'Other Sources',
		name: 'otherSources',
		type: 'string',
		default: '',
		placeholder: 'etsy, newegg',
		description: 'Source names missing from the list above, separated by commas',
	},
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://your-n8n.example.com/webhook/products',
		description:
			'Address that receives the results as a JSON POST, for example the production URL of a Scraping Callback Trigger or Webhook node',
	},
	{
		displayName:
			'In a range filter, "Equal" overrides every other operator: a range with "Equal" and other conditions is refused',
		name: 'equalNotice',
		type: 'notice',
		default: '',
	},
	productFiltersField,
	// From version 1.2 the cap on products found is n8n's usual Return All / Limit pair.
	{
		...returnAllField,
		description: 'Whether to have the service find every product, or at most Limit',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.2 } }] } },
	},
	{
		...limitField,
		description: LIMIT_DESCRIPTION,
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.2 } }], returnAll: [false] } },
	},
	{
		...additionalFields([{ ...limitField, description: LIMIT_DESCRIPTION }, ...PAGING_FIELDS]),
		displayOptions: { show: { '@version': [{ _cnd: { lt: 1.2 } }] } },
	},
	{
		...additionalFields(PAGING_FIELDS),
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.2 } }] } },
	},
	{
		...outputField(
			{
				name: 'One Item per Product',
				value: 'products',
				description: "Each product with the search's request_id",
			},
			'One item with the products, pagination, summary and credits used',
		),
		hint: 'With Wait for Completion (node version 1.1 on) the products come as one item, in "results": Split Out gives one item per product',
	},
	{
		displayName: 'Add Summary Item',
		name: 'includeSummary',
		type: 'boolean',
		default: false,
		description:
			'Whether to add one last item with the request_id, status, credits used, pagination and summary of the search',
		displayOptions: { show: { output: ['products'] } },
	},
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['search'] } },
	withWaitForCompletion(properties, waiting),
);

/** The limit sent: top-level Return All / Limit from version 1.2, Additional Fields before it. */
function searchLimit(
	typeVersion: number,
	parameter: (name: string, fallback?: unknown) => unknown,
	additional: IDataObject,
): unknown {
	if (typeVersion < 1.2) return additional.limit;
	return parameter('returnAll', false) ? undefined : parameter('limit', 50);
}

export function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	resumeUrl?: string,
): PreparedItem {
	const parameter = (name: string, fallback: unknown = undefined) =>
		this.getNodeParameter(name, itemIndex, fallback);
	const additional = parameter('additionalFields', {}) as IDataObject;
	const output = parameter('output', 'products') as SearchOutput;
	const includeSummary = parameter('includeSummary', false) as boolean;
	return {
		request: {
			api: 'ecommerce',
			method: 'POST',
			path: '/search',
			body: buildSearchBody(new FieldReader(this.getNode(), itemIndex), {
				keyword: parameter('keyword', ''),
				searchUrl: parameter('searchUrl', ''),
				sources: parameter('sources', []),
				otherSources: parameter('otherSources', ''),
				callbackUrl: resumeUrl ?? parameter('callbackUrl', ''),
				filters: parameter('filters', {}),
				page: additional.page,
				perPage: additional.perPage,
				limit: searchLimit(this.getNode().typeVersion, parameter, additional),
			}),
		},
		toOutput: (answer: IDataObject | undefined) =>
			searchOutputItems(answer ?? {}, output, includeSummary),
	};
}
