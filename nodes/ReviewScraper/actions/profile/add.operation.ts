import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/operations';
import { prepareSubmission, withWaitForCompletion } from '../../../shared/waitForCompletion';
import { profileFields, readProfileParameters } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['add'] } },
	withWaitForCompletion(profileFields, 'callback'),
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const qs = readProfileParameters.call(this, itemIndex);
	return prepareSubmission.call(this, itemIndex, {
		request: (resumeUrl) => ({
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			qs: resumeUrl ? { ...qs, callback: resumeUrl } : qs,
		}),
		idField: 'job_id',
	});
}
