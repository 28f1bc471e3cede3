import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/operations';
import { readScheduleId, scheduleLocator } from './locator';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['get'] } },
	[scheduleLocator],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const scheduleId = readScheduleId.call(this, itemIndex);
	return {
		request: { api: 'scheduling', method: 'GET', path: `/schedules/${scheduleId}` },
		toOutput: (response: IDataObject) => (response.results as IDataObject[]) ?? [],
	};
}
