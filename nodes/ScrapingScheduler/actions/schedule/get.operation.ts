import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { readScheduleId, scheduleLocator } from './locator';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['get'] } },
	[scheduleLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const scheduleId = readScheduleId.call(this, itemIndex);
	const response = (await apiRequest.call(this, {
		api: 'scheduling',
		method: 'GET',
		path: `/schedules/${scheduleId}`,
		itemIndex,
	})) as IDataObject;
	return (response.results as IDataObject[]) ?? [];
}
