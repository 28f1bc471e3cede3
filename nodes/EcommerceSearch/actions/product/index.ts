import type { INodeProperties } from 'n8n-workflow';

import * as search from './search.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['product'] } },
		options: [
			{
				name: 'Search',
				value: 'search',
				description: 'Search products by keyword or search-page URL, with filters',
				action: 'Search products',
			},
		],
		default: 'search',
	},
	...search.description,
];
