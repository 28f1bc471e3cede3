import type { INodeProperties } from 'n8n-workflow';

import * as read from './read.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { read };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['delivery'] } },
		options: [
			{
				name: 'Read',
				value: 'read',
				description:
					"Check the secret of a delivery n8n's Webhook node received and turn it into the Scraping Callback Trigger's items",
				action: 'Read a delivery',
			},
		],
		default: 'read',
	},
	...read.description,
];
