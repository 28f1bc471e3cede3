import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, type ApiRequestOptions } from './transport';
import { throwResumedFailure } from './waitForCompletion';

export type ItemOutput = IDataObject | IDataObject[];

/** One item's request, built without sending anything, and what its answer becomes. */
export interface PreparedItem {
	request: Omit<ApiRequestOptions, 'itemIndex'>;
	/**
	 * The item's output from the answer (the answer itself without it). Return All reads its further
	 * pages here, and Wait for Completion puts the execution to wait.
	 */
	toOutput?: (answer: any) => ItemOutput | Promise<ItemOutput>;
}

/** An operation on one input item at a time; `prepare` reads and checks, and sends nothing. */
export interface ItemOperation {
	description: INodeProperties[];
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem;
	/** Set in the router table, with `oneAtATime`. */
	oneAtATime?: boolean;
}

/** An operation that needs all input items at once (to batch them into fewer requests). */
export interface BatchOperation {
	description: INodeProperties[];
	executeBatch(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | BatchOperation;

export type ResourceOperations = Record<string, Operation>;

/**
 * Requests in flight at once. Like the HTTP Request node, an item does not wait for the round trip
 * of the one before it, which is what a run costs on a real network; the bound keeps a large input
 * from running into the service's rate limit.
 */
export const ITEM_CONCURRENCY = 5;

/** For an operation that already sends in parallel (Return All): its items go one after the other. */
export function oneAtATime(operation: ItemOperation): ItemOperation {
	return { ...operation, oneAtATime: true };
}

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

interface ItemFailure {
	itemIndex: number;
	error: NodeApiError | NodeOperationError;
}

async function send(
	this: IExecuteFunctions,
	{ request, toOutput }: PreparedItem,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const answer = await apiRequest.call(this, { ...request, itemIndex });
	const output: ItemOutput = toOutput ? await toOutput(answer) : answer;
	return (Array.isArray(output) ? output : [output]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

/**
 * Two phases: every item is prepared (no HTTP), then the prepared requests are sent through a
 * pool. A bad item ends the preparing, so nothing after it is ever sent; the items before it are
 * sent, as a one-by-one loop would have sent them. Output keeps the input order.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: Operation,
): Promise<INodeExecutionData[][]> {
	throwResumedFailure.call(this);
	const items = this.getInputData();
	if ('executeBatch' in operation) return [await operation.executeBatch.call(this, items)];

	const continueOnFail = this.continueOnFail();
	const outputs: INodeExecutionData[][] = new Array(items.length);
	/** An error item in the item's place, or the failure that stops the run. */
	const fail = (itemIndex: number, error: unknown): ItemFailure | undefined => {
		const itemError = toNodeError(this.getNode(), error, itemIndex);
		if (!continueOnFail) return { itemIndex, error: itemError };
		outputs[itemIndex] = [errorItem(itemError, itemIndex)];
		return undefined;
	};

	// Phase 1, no HTTP.
	const toSend: Array<{ itemIndex: number; prepared: PreparedItem }> = [];
	let badItem: ItemFailure | undefined;
	for (let itemIndex = 0; itemIndex < items.length && !badItem; itemIndex++) {
		try {
			toSend.push({ itemIndex, prepared: operation.prepare.call(this, itemIndex) });
		} catch (error) {
			badItem = fail(itemIndex, error);
		}
	}

	// Phase 2: once an item fails and the run stops, no further item is started.
	const failures: ItemFailure[] = [];
	let next = 0;
	const sendNext = async () => {
		while (next < toSend.length && failures.length === 0) {
			const { itemIndex, prepared } = toSend[next++];
			try {
				outputs[itemIndex] = await send.call(this, prepared, itemIndex);
			} catch (error) {
				const failure = fail(itemIndex, error);
				if (failure) failures.push(failure);
			}
		}
	};
	const poolSize = Math.min(operation.oneAtATime ? 1 : ITEM_CONCURRENCY, toSend.length);
	await Promise.all(Array.from({ length: poolSize }, sendNext));

	// The first failing item is what a one-by-one run would have stopped at.
	const failure = failures.sort((a, b) => a.itemIndex - b.itemIndex)[0] ?? badItem;
	if (failure) throw withItemsAlreadySent(failure, outputs);
	return [outputs.flat()];
}

/** Running the workflow again would send the items that went through a second time: say which. */
function withItemsAlreadySent({ itemIndex, error }: ItemFailure, outputs: INodeExecutionData[][]) {
	const wentThrough = outputs.flatMap((done, index) => (done && index > itemIndex ? [index] : []));
	if (wentThrough.length > 0) {
		const note = `Item${wentThrough.length > 1 ? 's' : ''} ${wentThrough.join(', ')}, already sent, went through before the run stopped.`;
		error.description = `${error.description ?? ''} ${note}`.trim();
	}
	return error;
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
