import type { INodeProperties } from 'n8n-workflow';

import * as getStatus from './getStatus.operation';

/** This resource's operations, by the value of its Operation parameter. */
export const operations = { getStatus };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['videoRequest'] } },
		options: [
			{
				name: 'Get Status',
				value: 'getStatus',
				description:
					'Get the status record (created, in_progress, failed, login_required, completed) of a video request submitted outside n8n',
				action: 'Get the status of a video request',
			},
		],
		default: 'getStatus',
	},
	...getStatus.description,
];
