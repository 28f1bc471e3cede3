import type { INodeProperties } from 'n8n-workflow';

import * as getResults from './getResults.operation';
import * as scrape from './scrape.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { getResults, scrape };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['socialPost'] } },
		options: [
			{
				name: 'Get Results',
				value: 'getResults',
				description: 'Get the social post extracted by a completed scrape',
				action: 'Get social post scrape results',
			},
			{
				name: 'Scrape',
				value: 'scrape',
				description: 'Start extracting the metadata of one social post',
				action: 'Scrape a social post',
			},
		],
		default: 'scrape',
	},
	...scrape.description,
	...getResults.description,
];
