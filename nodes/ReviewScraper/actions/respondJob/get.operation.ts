import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { FieldReader } from '../../../shared/outgoing/validation';
import { jobIdField } from '../jobId';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';
import { RESPOND_JOB_LOCATOR_FROM } from '../../versions';
import { endpointRequest } from '../../../shared/outgoing/transport';

const respondJobLocator: INodeProperties = {
	displayName: 'Respond Job',
	name: 'jobId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The respond job to read: pick it from the list, or give its ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchRespondJobs', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 10001',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\s*\\d+\\s*$',
						errorMessage: 'A respond job ID is a whole number',
					},
				},
			],
		},
	],
	displayOptions: { show: { '@version': [{ _cnd: { gte: RESPOND_JOB_LOCATOR_FROM } }] } },
};

const properties: INodeProperties[] = [
	{
		...jobIdField('Respond Job ID', 'ID of the respond job: a Get Many list gives it'),
		displayOptions: { show: { '@version': [{ _cnd: { lt: RESPOND_JOB_LOCATOR_FROM } }] } },
	},
	respondJobLocator,
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['respondJob'], operation: ['get'] } },
	[
		...properties,
		...toolDescriptionField(
			'Reads one respond job (a reply to a review) by its ID, the whole-number job_id a respond job list gives. Returns its status, the review and the reply text.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const read = new FieldReader(this.getNode(), itemIndex);
	const label =
		this.getNode().typeVersion >= RESPOND_JOB_LOCATOR_FROM ? 'Respond Job' : 'Respond Job ID';
	const jobId = read.requiredInteger(
		label,
		this.getNodeParameter('jobId', itemIndex, undefined, { extractValue: true }),
		{ min: 1 },
	);
	return {
		request: endpointRequest('review', 'GET /api/v2/responds/jobs/:job_id', { job_id: jobId }),
	};
}
