import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	callbackOptions,
	hintNoDestination,
	noDestinationNotice,
} from '../../../shared/outgoing/callbackReachability';
import { readProfile } from '../../../shared/outgoing/profile';
import { profileFields } from '../../../shared/outgoing/profileFields';
import { withWaitForCompletion } from '../../../shared/waiting/waitFields';
import { waitsForCompletion } from '../../../shared/waiting/wait';
import type { Waiting } from '../../../shared/waiting/declaration';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';
import { WAIT_TIME_LIMIT_IN_UNITS_FROM } from '../../versions';
import { endpointRequest } from '../../../shared/outgoing/transport';

export const waiting: Waiting = {
	callbackParameter: 'callback',
	idField: 'job_id',
	timeLimitInUnitsFrom: WAIT_TIME_LIMIT_IN_UNITS_FROM,
};

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['add'] } },
	[
		...withWaitForCompletion(
			[
				...profileFields,
				noDestinationNotice('add', {
					callback: [''],
					waitForCompletion: [false],
				}),
				callbackOptions,
			],
			waiting,
		),
		...toolDescriptionField(
			"Queues one review profile for collection. URL: the profile's page on a review site (required); the other fields are optional. Returns a job_id at once; the reviews are delivered later to the Callback URL, not by this tool.",
			"Queues one review profile for collection and waits for it. URL: the profile's page on a review site (required); the other fields are optional. Returns the collected job: job_id, review_count and the reviews.",
		),
	],
);

export const prepare = waitsForCompletion(waiting, function (itemIndex, resumeUrl) {
	const profile = readProfile.call(this, itemIndex);
	if (!resumeUrl && !profile.callback) hintNoDestination.call(this, 'add');
	return {
		request: endpointRequest(
			'review',
			'POST /api/v2/profiles/add',
			{},
			{
				qs: resumeUrl ? { ...profile, callback: resumeUrl } : profile,
			},
		),
	};
});
