import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getAll from './getAll.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['respondJob'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one respond job by its ID',
				action: 'Get a respond job',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get the respond jobs of the account',
				action: 'Get many respond jobs',
			},
		],
		default: 'get',
	},
	...get.description,
	...getAll.description,
];
