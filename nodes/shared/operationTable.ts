import type { INodeProperties } from 'n8n-workflow';

/** A node's operations by resource and operation name, as its parameters name them. */
export type OperationsOf<Operation extends { description: INodeProperties[] }> = Record<
	string,
	Record<string, Operation>
>;

export function lookUpOperation<Operation extends { description: INodeProperties[] }>(
	operations: OperationsOf<Operation>,
	resource: string,
	operation: string,
): Operation | undefined {
	return operations[resource]?.[operation];
}
