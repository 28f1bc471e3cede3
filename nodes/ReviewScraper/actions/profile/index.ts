import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';
import * as addMany from './addMany.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { add, addMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['profile'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Queue a job that collects the reviews of one profile',
				action: 'Add a review profile',
			},
			{
				name: 'Add Many',
				value: 'addMany',
				description: 'Queue one review profile job per input item, sent in bulk requests',
				action: 'Add many review profiles',
			},
		],
		default: 'add',
	},
	...add.description,
	...addMany.description,
];
