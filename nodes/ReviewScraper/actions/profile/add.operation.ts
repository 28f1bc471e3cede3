import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import {
	isWaitingRequested,
	resumeCallbackUrl,
	waitForCallback,
	withWaitForCompletion,
} from '../../../shared/waitForCompletion';
import { profileFields, readProfileParameters } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['add'] } },
	withWaitForCompletion(profileFields, 'callback'),
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const qs = readProfileParameters.call(this, itemIndex);
	const waiting = isWaitingRequested.call(this, itemIndex);
	if (waiting) qs.callback = resumeCallbackUrl.call(this, itemIndex);
	const acknowledgement = (await apiRequest.call(this, {
		api: 'review',
		method: 'POST',
		path: '/api/v2/profiles/add',
		qs,
		itemIndex,
	})) as IDataObject;
	if (waiting) await waitForCallback.call(this, itemIndex, acknowledgement.job_id);
	return acknowledgement;
}
