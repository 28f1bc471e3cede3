import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { routeOperation } from '../../shared/operations';
import * as listingAudit from './listingAudit';
import * as profile from './profile';
import * as respondJob from './respondJob';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, {
		profile: { add: profile.add, addMany: profile.addMany },
		respondJob: { get: respondJob.get, getAll: respondJob.getAll },
		listingAudit: { get: listingAudit.get },
	});
}
