import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { FieldReader } from '../../../shared/outgoing/validation';
import { jobIdField } from '../jobId';

const properties: INodeProperties[] = [jobIdField('ID of the respond job')];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['respondJob'], operation: ['get'] } },
	properties,
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const read = new FieldReader(this.getNode(), itemIndex);
	const jobId = read.requiredInteger('Job ID', this.getNodeParameter('jobId', itemIndex), {
		min: 1,
	});
	return { request: { api: 'review', method: 'GET', path: `/api/v2/responds/jobs/${jobId}` } };
}
