import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalFields,
	filtersCollection,
	limitField,
	outputField,
} from '../../../shared/descriptions';
import { apiRequest } from '../../../shared/transport';
import {
	completedResults,
	isWaitingRequested,
	resumeCallbackUrl,
	waitForCallback,
	withWaitForCompletion,
} from '../../../shared/waitForCompletion';
import { FieldReader } from '../../../shared/validation';
import { OPERATOR_LABELS, RANGE_FILTERS, RANGE_OPERATORS } from './filters';
import {
	buildSearchBody,
	COMMON_SOURCES,
	MAX_PER_PAGE,
	searchOutputItems,
	type SearchOutput,
} from './payload';

const SOURCE_LABELS: Record<string, string> = {
	amazon: 'Amazon',
	bestbuy: 'Best Buy',
	ebay: 'eBay',
	target: 'Target',
	walmart: 'Walmart',
};

const rangeFilter = (
	displayName: string,
	name: string,
	valueDescription: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Condition',
	default: {},
	description: `${valueDescription} must meet every condition. "Equal" overrides the other operators, so it cannot be combined with them.`,
	options: [
		{
			displayName: 'Condition',
			name: 'condition',
			values: [
				{
					displayName: 'Operator',
					name: 'operator',
					type: 'options',
					options: RANGE_OPERATORS.map((operator) => ({
						name: OPERATOR_LABELS[operator],
						value: operator,
					})),
					default: 'gte',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'number',
					default: 0,
				},
			],
		},
	],
});

const RANGE_DESCRIPTIONS: Record<(typeof RANGE_FILTERS)[number]['parameter'], string> = {
	fullPrice: 'The full price',
	reducedPrice: 'The reduced price (products without one never match)',
	rating: 'The rating',
	reviewCount: 'The number of reviews',
	boughtLastMonth: 'The number bought last month',
};

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
	filtersCollection([
		{
			displayName: 'Bestseller',
			name: 'bestseller',
			type: 'boolean',
			default: false,
			description: 'Whether to keep only bestsellers (on) or only products that are not (off)',
		},
		rangeFilter('Bought Last Month', 'boughtLastMonth', RANGE_DESCRIPTIONS.boughtLastMonth),
		rangeFilter('Full Price', 'fullPrice', RANGE_DESCRIPTIONS.fullPrice),
		{
			displayName: 'Name Contains',
			name: 'nameContains',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Text' },
			default: [],
			description: 'Keep products whose name contains this text; with several, all must appear',
		},
		{
			displayName: 'Overall Pick',
			name: 'overallPick',
			type: 'boolean',
			default: false,
			description:
				'Whether to keep only "overall pick" products (on) or only products that are not (off)',
		},
		{
			displayName: 'Prime',
			name: 'prime',
			type: 'boolean',
			default: false,
			description:
				'Whether to keep only Prime products (on) or only non-Prime ones (off). Applies to the products of one marketplace source only (Amazon).',
		},
		{
			displayName: 'Ranking Pages',
			name: 'rankingPages',
			type: 'string',
			default: '',
			placeholder: '1, 2',
			description:
				'Keep products shown on these result pages: one number or several separated by commas',
		},
		{
			displayName: 'Ranking Positions',
			name: 'rankingPositions',
			type: 'string',
			default: '',
			placeholder: '1, 2, 3',
			description:
				'Keep products shown at these positions of their page: one number or several separated by commas',
		},
		rangeFilter('Rating', 'rating', RANGE_DESCRIPTIONS.rating),
		rangeFilter('Reduced Price', 'reducedPrice', RANGE_DESCRIPTIONS.reducedPrice),
		rangeFilter('Review Count', 'reviewCount', RANGE_DESCRIPTIONS.reviewCount),
		{
			displayName: 'Sponsored',
			name: 'sponsored',
			type: 'boolean',
			default: false,
			description:
				'Whether to keep only sponsored products (on) or only products that are not sponsored (off)',
		},
		{
			displayName: 'URL Contains',
			name: 'urlContains',
			type: 'string',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Text' },
			default: [],
			description: 'Keep products whose URL contains this text; with several, all must appear',
		},
	]),
	additionalFields([
		{ ...limitField, hint: 'Counted over all pages' },
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
	]),
	outputField(
		{
			name: 'One Item per Product',
			value: 'products',
			description: "Each product with the search's request_id",
		},
		'One item with the products, pagination, summary and credits used',
	),
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
	withWaitForCompletion(properties, 'callbackUrl'),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const parameter = (name: string, fallback: unknown = undefined) =>
		this.getNodeParameter(name, itemIndex, fallback);
	const additional = parameter('additionalFields', {}) as IDataObject;
	const waiting = isWaitingRequested.call(this, itemIndex);
	const body = buildSearchBody(new FieldReader(this.getNode(), itemIndex), {
		keyword: parameter('keyword', ''),
		searchUrl: parameter('searchUrl', ''),
		sources: parameter('sources', []),
		otherSources: parameter('otherSources', ''),
		callbackUrl: waiting ? resumeCallbackUrl.call(this, itemIndex) : parameter('callbackUrl', ''),
		filters: parameter('filters', {}),
		page: additional.page,
		perPage: additional.perPage,
		limit: additional.limit,
	});
	const response = (await apiRequest.call(this, {
		api: 'ecommerce',
		method: 'POST',
		path: '/search',
		body,
		itemIndex,
	})) as IDataObject;
	const output = parameter('output', 'products') as SearchOutput;
	const includeSummary = parameter('includeSummary', false) as boolean;
	// The service may answer with the results at once: then there is nothing to wait for.
	if (waiting && !Array.isArray(response?.results)) {
		await waitForCallback.call(this, itemIndex, response?.request_id);
		return [response];
	}
	const items = searchOutputItems(response ?? {}, output, includeSummary);
	return waiting ? completedResults(items) : items;
}
