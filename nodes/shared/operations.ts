import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { RunStopped, SendOrder, setSendOrder } from './sendOrder';

/** An operation that handles one input item per call; the router owns the loop. */
export interface ItemOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject | IDataObject[]>;
	/** Items handled at the same time; an operation that already sends in parallel sets 1. */
	itemConcurrency?: number;
}

/**
 * Items in flight at once. Like the HTTP Request node, an item does not wait for the round trip of
 * the one before it, which is what a run costs on a real network; the bound keeps a large input
 * from running into the service's rate limit.
 */
export const ITEM_CONCURRENCY = 5;

/** An operation that needs all input items at once (to batch them into fewer requests). */
export interface BatchOperation {
	description: INodeProperties[];
	executeBatch(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | BatchOperation;

export type ResourceOperations = Record<string, Operation>;

export function errorItem(
	error: Error,
	itemIndex: number,
	extra: IDataObject = {},
): INodeExecutionData {
	const json: IDataObject = { ...extra, error: error.message };
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) json.errorDescription = error.description;
	}
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

export async function runOperation(
	this: IExecuteFunctions,
	operation: Operation,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if ('executeBatch' in operation) return [await operation.executeBatch.call(this, items)];

	const continueOnFail = this.continueOnFail();
	const order = new SendOrder(items.length);
	const outputs: INodeExecutionData[][] = new Array(items.length);
	const failures: Array<{ itemIndex: number; error: NodeApiError | NodeOperationError }> = [];
	let nextIndex = 0;
	const worker = async () => {
		while (nextIndex < items.length && (continueOnFail || failures.length === 0)) {
			const itemIndex = nextIndex++;
			try {
				const result = await operation.execute.call(this, itemIndex);
				outputs[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({
					json,
					pairedItem: { item: itemIndex },
				}));
				order.finished(itemIndex);
			} catch (error) {
				if (error instanceof RunStopped) continue;
				const itemError = toNodeError(this.getNode(), error, itemIndex);
				if (continueOnFail) {
					outputs[itemIndex] = [errorItem(itemError, itemIndex)];
					order.finished(itemIndex);
				} else {
					failures.push({ itemIndex, error: itemError });
					order.stopAfter(itemIndex);
				}
			}
		}
	};
	const concurrency = Math.min(operation.itemConcurrency ?? ITEM_CONCURRENCY, items.length);
	setSendOrder(this, order);
	try {
		await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
	} finally {
		setSendOrder(this, undefined);
	}

	if (failures.length > 0) {
		// The first failing item is what a one-by-one run would have stopped at.
		const { itemIndex: failedIndex, error } = failures.sort((a, b) => a.itemIndex - b.itemIndex)[0];
		const wentThrough = outputs.flatMap((done, index) =>
			done && index > failedIndex ? [index] : [],
		);
		if (wentThrough.length > 0) {
			// Running the workflow again would send these a second time, so say they went through.
			const note = `Item${wentThrough.length > 1 ? 's' : ''} ${wentThrough.join(', ')}, already sent, went through before the run stopped.`;
			error.description = `${error.description ?? ''} ${note}`.trim();
		}
		throw error;
	}
	return [outputs.flat()];
}

export async function routeOperation(
	this: IExecuteFunctions,
	resources: Record<string, ResourceOperations>,
): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" is not known for resource "${resource}"`,
		);
	}
	return await runOperation.call(this, operation);
}
