import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	filtersCollection,
	readLimit,
	returnAllOrLimit,
	toolDescriptionField,
} from '../../../shared/outgoing/descriptions';
import type { PreparedItem } from '../../../shared/outgoing/router';
import { scheduleRequests, scheduleResults } from '../../../shared/outgoing/schedule/client';
import { frequencyField, SERVICE_OPTIONS } from '../../../shared/outgoing/schedule/scheduleOptions';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filtersCollection([
		frequencyField,
		{
			displayName: 'Service',
			name: 'service',
			type: 'options',
			options: SERVICE_OPTIONS,
			default: 'rsapi',
		},
		{
			displayName: 'State',
			name: 'state',
			type: 'options',
			options: [
				{ name: 'Enabled', value: 'enabled' },
				{ name: 'Disabled', value: 'disabled' },
			],
			default: 'enabled',
		},
	]),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['getAll'] } },
	[
		...properties,
		...toolDescriptionField(
			"Lists the account's schedules: schedule_id, name, service, frequency and state. Limit: how many to return.",
		),
	],
);

// The service documents no list parameters, so filters and the limit are applied to the full list.
export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const limit = readLimit.call(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	return {
		request: scheduleRequests.list(),
		toOutput: (answer: unknown) => {
			const schedules = scheduleResults(answer).filter(
				(schedule) =>
					(filters.service === undefined || schedule.service === filters.service) &&
					(filters.frequency === undefined || schedule.frequency === filters.frequency) &&
					(filters.state === undefined ||
						Boolean(schedule.disabled) === (filters.state === 'disabled')),
			);
			return limit === undefined ? schedules : schedules.slice(0, limit);
		},
	};
}
