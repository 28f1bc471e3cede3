import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';

export async function searchSchedules(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const response = (await apiRequest.call(this, {
		api: 'scheduling',
		method: 'GET',
		path: '/schedules',
	})) as IDataObject;
	const needle = (filter ?? '').trim().toLowerCase();
	const results = ((response.results as IDataObject[]) ?? [])
		.map((schedule) => ({
			name: `${schedule.schedule_name || 'Schedule'} #${schedule.schedule_id} (${schedule.service} ${schedule.frequency})`,
			value: String(schedule.schedule_id),
		}))
		.filter((option) => needle === '' || option.name.toLowerCase().includes(needle));
	return { results };
}
