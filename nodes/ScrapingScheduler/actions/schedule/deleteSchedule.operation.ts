import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { scheduleRequests, scheduleResults } from '../../../shared/outgoing/schedule/client';
import { readScheduleId, scheduleLocator } from './locator';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['deleteSchedule'] } },
	[
		scheduleLocator,
		...toolDescriptionField(
			'Deletes a schedule so it runs no more. Schedule: the schedule_id a schedule list gives.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const scheduleId = readScheduleId.call(this, itemIndex);
	return {
		request: scheduleRequests.delete(scheduleId),
		toOutput: (answer: unknown) => {
			const [deleted] = scheduleResults(answer);
			return { deleted: true, schedule_id: scheduleId, ...(deleted ?? {}) };
		},
	};
}
