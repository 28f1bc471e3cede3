import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { FieldReader } from '../../../shared/outgoing/validation';
import { jobIdField } from '../jobId';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';

const properties: INodeProperties[] = [
	jobIdField('Respond Job ID', 'ID of the respond job: a Get Many list gives it'),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['respondJob'], operation: ['get'] } },
	[
		...properties,
		...toolDescriptionField(
			'Reads one respond job (a reply to a review) by Respond Job ID, the whole-number job_id a respond job list gives. Returns its status, the review and the reply text.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const read = new FieldReader(this.getNode(), itemIndex);
	const jobId = read.requiredInteger('Respond Job ID', this.getNodeParameter('jobId', itemIndex), {
		min: 1,
	});
	return { request: { api: 'review', method: 'GET', path: `/api/v2/responds/jobs/${jobId}` } };
}
