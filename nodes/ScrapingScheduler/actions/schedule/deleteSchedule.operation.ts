import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { readScheduleId, scheduleLocator } from './locator';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['deleteSchedule'] } },
	[scheduleLocator],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const scheduleId = readScheduleId.call(this, itemIndex);
	const response = (await apiRequest.call(this, {
		api: 'scheduling',
		method: 'DELETE',
		path: `/schedules/${scheduleId}`,
		itemIndex,
	})) as IDataObject;
	const [deleted] = (response.results as IDataObject[]) ?? [];
	return { deleted: true, schedule_id: scheduleId, ...(deleted ?? {}) };
}
