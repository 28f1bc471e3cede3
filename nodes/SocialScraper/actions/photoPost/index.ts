import type { INodeProperties } from 'n8n-workflow';

import * as getResults from './getResults.operation';
import * as getStatus from './getStatus.operation';
import * as search from './search.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { getResults, getStatus, search };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['photoPost'] } },
		options: [
			{
				name: 'Get Results',
				value: 'getResults',
				description: 'Get the photo posts found by a completed search',
				action: 'Get photo post search results',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Get the status record of a photo post search',
				action: 'Get the status of a photo post search',
			},
			{
				name: 'Search',
				value: 'search',
				description: 'Start a search for photo posts by keyword or hashtag',
				action: 'Search photo posts',
			},
		],
		default: 'search',
	},
	...search.description,
	...getResults.description,
	...getStatus.description,
];
