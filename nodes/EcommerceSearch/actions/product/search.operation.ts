import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { withoutKeys } from '../../../shared/dataObject';
import { FieldReader } from '../../../shared/outgoing/validation';
import { withWaitForCompletion } from '../../../shared/waiting/waitFields';
import { waitsForCompletion } from '../../../shared/waiting/wait';
import { oneResumedItem, type Waiting } from '../../../shared/waiting/declaration';
import { buildFilters } from './filters';
import { MAX_PER_PAGE, searchProperties } from './searchFields';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';
import {
	LIMIT_AT_TOP_LEVEL_FROM,
	ONE_RESUMED_ITEM_FROM,
	WAIT_TIME_LIMIT_IN_UNITS_FROM,
} from '../../versions';
import { endpointRequest } from '../../../shared/outgoing/transport';

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
 * Builds the POST /search body (docs/service-facts.md#e-commerce-search); every rule is checked
 * before anything is sent.
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

/**
 * A search answered with its results at once has nothing to wait for. Waited-for products come as
 * one item from version 1.1, which n8n can link to the one waiting input item; version 1 gave one
 * item per product and keeps doing so for workflows saved with it.
 */
export const waiting: Waiting = {
	callbackParameter: 'callbackUrl',
	idField: 'request_id',
	timeLimitInUnitsFrom: WAIT_TIME_LIMIT_IN_UNITS_FROM,
	answeredAtOnce: (answer) => Array.isArray(answer.results),
	resumedItems: (envelope, node, parameter) =>
		node.typeVersion >= ONE_RESUMED_ITEM_FROM
			? oneResumedItem(envelope)
			: searchOutputItems(
					envelope,
					parameter('output', 'products') as SearchOutput,
					parameter('includeSummary', false) as boolean,
				),
};

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['search'] } },
	[
		...withWaitForCompletion(searchProperties, waiting),
		...toolDescriptionField(
			'Searches shopping sites (Sources) for products matching Keyword. Returns a request_id at once; the products are delivered later to the Callback URL, not by this tool.',
			'Searches shopping sites (Sources) for products matching Keyword and waits for the results. Returns the products found: name, price, rating, review count and URL.',
		),
	],
);

/** The limit sent: top-level Return All / Limit from LIMIT_AT_TOP_LEVEL_FROM, Additional Fields before it. */
function searchLimit(
	typeVersion: number,
	parameter: (name: string, fallback?: unknown) => unknown,
	additional: IDataObject,
): unknown {
	if (typeVersion < LIMIT_AT_TOP_LEVEL_FROM) return additional.limit;
	return parameter('returnAll', false) ? undefined : parameter('limit', 50);
}

export const prepare = waitsForCompletion(waiting, function (itemIndex, resumeUrl) {
	const parameter = (name: string, fallback: unknown = undefined) =>
		this.getNodeParameter(name, itemIndex, fallback);
	const additional = parameter('additionalFields', {}) as IDataObject;
	const output = parameter('output', 'products') as SearchOutput;
	const includeSummary = parameter('includeSummary', false) as boolean;
	return {
		request: endpointRequest(
			'ecommerce',
			'POST /search',
			{},
			{
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
		),
		toOutput: (answer: IDataObject | undefined) =>
			searchOutputItems(answer ?? {}, output, includeSummary),
	};
});
