import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { FieldReader } from '../../../shared/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Frequency',
				name: 'frequency',
				type: 'options',
				options: [
					{ name: 'Daily', value: 'daily' },
					{ name: 'Weekly', value: 'weekly' },
					{ name: 'Monthly', value: 'monthly' },
				],
				default: 'daily',
			},
			{
				displayName: 'Service',
				name: 'service',
				type: 'options',
				options: [
					{ name: 'Review Scraper API (Rsapi)', value: 'rsapi' },
					{ name: 'Review Index API (Riapi)', value: 'riapi' },
				],
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
		],
	},
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['getAll'] } },
	properties,
);

// The spec documents no list parameters, so filters and the limit are applied to the full list.
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll
		? undefined
		: new FieldReader(this.getNode(), itemIndex).requiredInteger(
				'Limit',
				this.getNodeParameter('limit', itemIndex, 50),
				{ min: 1 },
			);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const response = (await apiRequest.call(this, {
		api: 'scheduling',
		method: 'GET',
		path: '/schedules',
		itemIndex,
	})) as IDataObject;
	const schedules = ((response.results as IDataObject[]) ?? []).filter(
		(schedule) =>
			(filters.service === undefined || schedule.service === filters.service) &&
			(filters.frequency === undefined || schedule.frequency === filters.frequency) &&
			(filters.state === undefined ||
				Boolean(schedule.disabled) === (filters.state === 'disabled')),
	);
	return limit === undefined ? schedules : schedules.slice(0, limit);
}
