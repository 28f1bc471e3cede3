import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['listingAudit'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the local listing audit (name, address, phone per source) of a job',
				action: 'Get a listing audit',
			},
		],
		default: 'get',
	},
	...get.description,
];
