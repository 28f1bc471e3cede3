import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { FieldReader } from '../../../shared/outgoing/validation';
import { jobIdField } from '../jobId';
import { simplifyAudit } from './simplify';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';
import { endpointRequest } from '../../../shared/outgoing/transport';

const properties: INodeProperties[] = [
	jobIdField(
		'Profile Job ID',
		'The job_id that Profile → Add or Add Many returned for the profile whose local listing audit to read',
	),
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to give every source the same field names (name, phone, review_count, rating_distribution as numbers), keeping the original entry under "raw"',
	},
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['listingAudit'], operation: ['get'] } },
	[
		...properties,
		...toolDescriptionField(
			'Reads the local listing audit of a review job: company name, phone and address as each review site lists them. Profile Job ID: the whole-number job_id of a queued profile.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const read = new FieldReader(this.getNode(), itemIndex);
	const jobId = read.requiredInteger('Profile Job ID', this.getNodeParameter('jobId', itemIndex), {
		min: 1,
	});
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return {
		request: endpointRequest(
			'review',
			'GET /api/v2/local_naps/local_nap',
			{},
			{
				qs: { job_id: jobId },
			},
		),
		toOutput: (audit: IDataObject) => (simplify ? simplifyAudit(audit) : audit),
	};
}
