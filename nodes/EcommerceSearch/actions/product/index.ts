import type { INodeProperties } from 'n8n-workflow';

import * as search from './search.operation';

export { search };

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
