/**
 * The router of every action node: the per-item loop, Continue On Fail and paired items. Wait for
 * Completion is not its business: an operation that waits declares it on its own `prepare`
 * (waiting/wait.ts), and the router sends what that gives.
 *
 * Which requests go through the router. Every request an action node makes for its input is
 * prepared by its operation (`prepare`, or `batch.prepare` for an operation whose requests carry
 * many items, Add Many; read, check, build; nothing sent) and sent here or by batches.ts; that
 * gives every item the same checks before anything is sent, errors that name the item, Retry On
 * Fail's memory and item links. Every request goes through the transport's `send`; only these
 * call it themselves, and nothing else may:
 * - requests that follow from an item's answer, made in that item's `toOutput`: the further pages
 *   of Return All, and Photo Post results after their status;
 * - requests for no input item: a trigger's activation hooks and the editor's list search.
 *
 * n8n's Retry On Fail runs `execute()` again on the same input: a submission the service
 * acknowledged in an earlier try is answered from the retry memory (transport/retryMemory.ts),
 * never sent again.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem } from '../errorOutput';
import type { OperationsOf } from '../operationTable';
import { runBatches, type BatchOperation } from './batches';
import { refuseUnreachableCallbacks, type CallbackSource } from './callbackReachability';
import { answerFailure } from './toolAnswer';
import { retryMemory, send, toNodeError, type ServiceRequest } from './transport';

export type ItemOutput = IDataObject | IDataObject[];

/** One item's request, built without sending anything, and what its answer becomes. */
export interface PreparedItem {
	request: ServiceRequest;
	/**
	 * The item's output from the answer (the answer itself without it). A method, so that each
	 * operation types the answer it expects of its endpoint.
	 */
	toOutput?(answer: unknown): ItemOutput | Promise<ItemOutput>;
	/** Where the request's callback came from, for the refusal of one the service cannot reach. */
	callbackSource?: CallbackSource;
}

/** An operation on one input item at a time. */
export interface ItemOperation {
	description: INodeProperties[];
	/** Reads and checks one item and builds its request; sends nothing. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem;
	/** Items one after the other, for an operation whose item already sends in parallel. */
	oneAtATime?: boolean;
}

export type { BatchOperation };

export type Operation = ItemOperation | BatchOperation;

export type OperationTable = OperationsOf<Operation>;

/**
 * Requests in flight at once. Like the HTTP Request node, an item does not wait for the round trip
 * of the one before it, which is what a run costs on a real network; the bound keeps a large input
 * from running into the service's rate limit.
 */
export const ITEM_CONCURRENCY = 5;

export async function route(
	this: IExecuteFunctions,
	operations: OperationTable,
): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	try {
		if (!operation) {
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${operationName}" is not known for resource "${resource}"`,
			);
		}
		return await runOperation.call(this, operation);
	} catch (error) {
		// As an AI agent's tool, a failure must reach the model in words (toolAnswer.ts).
		return answerFailure.call(this, error);
	}
}

interface ItemFailure {
	itemIndex: number;
	error: NodeApiError | NodeOperationError;
}

/**
 * Two phases: every item is prepared (no HTTP) and its callback checked, then the prepared
 * requests are sent through a pool. A bad item ends the preparing, so nothing after it is ever
 * sent; the items before it are sent, as a one-by-one loop would have sent them. Output keeps the
 * input order.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: Operation,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	if ('batch' in operation) return [await runBatches.call(this, operation, items)];

	const continueOnFail = this.continueOnFail();
	const outputs: INodeExecutionData[][] = new Array(items.length);
	/** An error item in the item's place, or the failure that stops the run. */
	const fail = (itemIndex: number, error: unknown): ItemFailure | undefined => {
		const itemError = toNodeError(this.getNode(), error, itemIndex);
		if (!continueOnFail) return { itemIndex, error: itemError };
		outputs[itemIndex] = [errorItem.call(this, itemError, itemIndex)];
		return undefined;
	};

	// Phase 1, no HTTP to the service.
	const toSend: Array<{ itemIndex: number; prepared: PreparedItem }> = [];
	let badItem: ItemFailure | undefined;
	for (let itemIndex = 0; itemIndex < items.length && !badItem; itemIndex++) {
		try {
			const prepared = operation.prepare.call(this, itemIndex);
			await refuseUnreachableCallbacks.call(
				this,
				prepared.request,
				itemIndex,
				prepared.callbackSource,
			);
			toSend.push({ itemIndex, prepared });
		} catch (error) {
			badItem = fail(itemIndex, error);
		}
	}

	// Phase 2: once an item fails and the run stops, no further item is started.
	const memory = retryMemory.call(this);
	const failures: ItemFailure[] = [];
	let next = 0;
	const sendNext = async () => {
		while (next < toSend.length && failures.length === 0) {
			const { itemIndex, prepared } = toSend[next++];
			try {
				const answer = await send.call(this, { ...prepared.request, itemIndex }, memory);
				const output = prepared.toOutput ? await prepared.toOutput(answer) : answer;
				outputs[itemIndex] = (Array.isArray(output) ? output : [output]).map((json) => ({
					json: json as IDataObject,
					pairedItem: { item: itemIndex },
				}));
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
