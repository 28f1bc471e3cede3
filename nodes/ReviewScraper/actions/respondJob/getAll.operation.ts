import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { FieldReader } from '../../../shared/validation';

const properties: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['respondJob'], operation: ['getAll'] } },
	properties,
);

// The spec documents no query parameters for this list, so the whole list is read and the limit
// is applied here.
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll
		? undefined
		: new FieldReader(this.getNode(), itemIndex).requiredInteger(
				'Limit',
				this.getNodeParameter('limit', itemIndex, 50),
				{ min: 1 },
			);
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
