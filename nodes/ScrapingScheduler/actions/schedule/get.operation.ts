import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { scheduleRequests, scheduleResults } from '../../../shared/outgoing/schedule/client';
import { readScheduleId, scheduleLocator } from './locator';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['get'] } },
	[
		scheduleLocator,
		...toolDescriptionField(
			'Reads one schedule: its service, endpoint, frequency, state and parameters. Schedule: the schedule_id a schedule list gives.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const scheduleId = readScheduleId.call(this, itemIndex);
	return { request: scheduleRequests.get(scheduleId), toOutput: scheduleResults };
}
