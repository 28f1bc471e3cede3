import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as deleteSchedule from './deleteSchedule.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { create, deleteSchedule, get, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['schedule'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a recurring schedule that calls a review API endpoint',
				action: 'Create a schedule',
			},
			{
				name: 'Delete',
				value: 'deleteSchedule',
				description: 'Delete a schedule',
				action: 'Delete a schedule',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one schedule',
				action: 'Get a schedule',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get the schedules of the account, optionally filtered',
				action: 'Get many schedules',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...deleteSchedule.description,
];
