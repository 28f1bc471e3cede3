import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readLimit, returnAllOrLimit } from '../../../shared/descriptions';
import { apiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [...returnAllOrLimit];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['respondJob'], operation: ['getAll'] } },
	properties,
);

// The spec documents no query parameters for this list, so the whole list is read and the limit
// is applied here.
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const limit = readLimit.call(this, itemIndex);
	const jobs = (await apiRequest.call(this, {
		api: 'review',
		method: 'GET',
		path: '/api/v2/responds/jobs',
		itemIndex,
	})) as unknown;
	if (!Array.isArray(jobs)) {
		throw new NodeOperationError(this.getNode(), 'The respond job list is not a list', {
			itemIndex,
		});
	}
	return (limit === undefined ? jobs : jobs.slice(0, limit)) as IDataObject[];
}
