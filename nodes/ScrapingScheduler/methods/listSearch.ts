import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listSchedules } from '../../shared/outgoing/schedule/client';

export async function searchSchedules(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').trim().toLowerCase();
	const results = (await listSchedules.call(this))
		.map((schedule) => ({
			name: `${schedule.schedule_name || 'Schedule'} #${schedule.schedule_id} (${schedule.service} ${schedule.frequency})`,
			value: String(schedule.schedule_id),
		}))
		.filter((option) => needle === '' || option.name.toLowerCase().includes(needle));
	return { results };
}
