import type { INodeProperties } from 'n8n-workflow';

/** A node's operations by resource and operation name, as its parameters name them. */
export type OperationsOf<Operation extends { description: INodeProperties[] }> = Record<
	string,
	Record<string, Operation>
>;
