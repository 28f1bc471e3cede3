import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	readLimit,
	returnAllOrLimit,
	toolDescriptionField,
} from '../../../shared/outgoing/descriptions';
import type { PreparedItem } from '../../../shared/outgoing/router';
import { endpointRequest } from '../../../shared/outgoing/transport';

const properties: INodeProperties[] = [...returnAllOrLimit];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['respondJob'], operation: ['getAll'] } },
	[
		...properties,
		...toolDescriptionField(
			"Lists the account's respond jobs (replies to reviews): job_id, profile_url, review_id, status and text. Limit: how many to return.",
		),
	],
);

// The service documents no query parameters for this list, so the whole list is read and the limit
// is applied here.
export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const limit = readLimit.call(this, itemIndex);
	return {
		request: endpointRequest('review', 'GET /api/v2/responds/jobs'),
		toOutput: (jobs: unknown) => {
			const list = respondJobList(this.getNode(), jobs, itemIndex);
			return limit === undefined ? list : list.slice(0, limit);
		},
	};
}

/** The service's respond job list, or an error that says it answered something else. */
export function respondJobList(node: INode, jobs: unknown, itemIndex?: number): IDataObject[] {
	if (!Array.isArray(jobs)) {
		throw new NodeOperationError(node, 'The respond job list is not a list', { itemIndex });
	}
	return jobs as IDataObject[];
}
