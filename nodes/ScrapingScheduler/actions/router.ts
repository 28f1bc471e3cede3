import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/operations';
import * as schedule from './schedule';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, {
		schedule: {
			create: schedule.create,
			get: schedule.get,
			getAll: schedule.getAll,
			deleteSchedule: schedule.deleteSchedule,
		},
	});
}
