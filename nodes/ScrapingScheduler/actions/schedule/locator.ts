import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FieldReader } from '../../../shared/outgoing/validation';

export const scheduleLocator: INodeProperties = {
	displayName: 'Schedule',
	name: 'scheduleId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSchedules', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 42',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A schedule ID is a whole number' },
				},
			],
		},
	],
};

export function readScheduleId(this: IExecuteFunctions, itemIndex: number): number {
	const value = this.getNodeParameter('scheduleId', itemIndex, undefined, { extractValue: true });
	return new FieldReader(this.getNode(), itemIndex).requiredInteger('Schedule', value, { min: 1 });
}
