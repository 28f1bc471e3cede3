import type { INodeProperties } from 'n8n-workflow';

import { callbackOptions } from '../../../shared/outgoing/callbackReachability';
import {
	additionalFields,
	limitField,
	outputField,
	returnAllField,
} from '../../../shared/outgoing/descriptions';
import { productFiltersField } from './filterFields';
import { LIMIT_AT_TOP_LEVEL_FROM } from '../../versions';

export const MAX_PER_PAGE = 500;

/** The service does not list the valid sources: these are offered, any other name can be typed. */
export const COMMON_SOURCES = ['amazon', 'bestbuy', 'ebay', 'target', 'walmart'];

const SOURCE_LABELS: Record<string, string> = {
	amazon: 'Amazon',
	bestbuy: 'Best Buy',
	ebay: 'eBay',
	target: 'Target',
	walmart: 'Walmart',
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

export const searchProperties: INodeProperties[] = [
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
		placeholder: 'e.g. wireless headphones',
		description: 'Words to search for across the chosen sources',
	},
	{
		displayName: 'Search Page URL',
		name: 'searchUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://www.amazon.com/s?k=wireless+headphones',
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
		placeholder: 'e.g. etsy, newegg',
		description: 'Source names missing from the list above, separated by commas',
	},
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://your-n8n.example.com/webhook/products',
		description:
			'Address that receives the results as a JSON POST, for example the production URL of a Scraping Callback Trigger or Webhook node',
	},
	productFiltersField,
	// From LIMIT_AT_TOP_LEVEL_FROM the cap on products found is n8n's usual Return All / Limit pair.
	{
		...returnAllField,
		description: 'Whether to have the service find every product, or at most Limit',
		displayOptions: { show: { '@version': [{ _cnd: { gte: LIMIT_AT_TOP_LEVEL_FROM } }] } },
	},
	{
		...limitField,
		description: LIMIT_DESCRIPTION,
		displayOptions: {
			show: { '@version': [{ _cnd: { gte: LIMIT_AT_TOP_LEVEL_FROM } }], returnAll: [false] },
		},
	},
	{
		...additionalFields([{ ...limitField, description: LIMIT_DESCRIPTION }, ...PAGING_FIELDS]),
		displayOptions: { show: { '@version': [{ _cnd: { lt: LIMIT_AT_TOP_LEVEL_FROM } }] } },
	},
	{
		...additionalFields(PAGING_FIELDS),
		displayOptions: { show: { '@version': [{ _cnd: { gte: LIMIT_AT_TOP_LEVEL_FROM } }] } },
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
	callbackOptions,
];
