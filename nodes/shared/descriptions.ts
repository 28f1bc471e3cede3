import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FieldReader } from './validation';

/** n8n's usual pair for "Get Many" operations. */
export const returnAllOrLimit: INodeProperties[] = [
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

/** The limit to apply, or undefined for Return All. */
export function readLimit(this: IExecuteFunctions, itemIndex: number): number | undefined {
	if (this.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	return new FieldReader(this.getNode(), itemIndex).requiredInteger(
		'Limit',
		this.getNodeParameter('limit', itemIndex, 50),
		{ min: 1 },
	);
}
