/**
 * The router of every action node: the per-item loop, as n8n's own v2 routers have it (each item's
 * operation, Continue On Fail, paired items), with what a paid submission needs besides: every
 * item is read and checked before the first request (`prepare`: nothing sent), a few items are in
 * flight at once, Retry On Fail's memory (host/retryMemory.ts) answers a submission the service
 * accepted in an earlier try, and a stopped run names what the service already accepted.
 *
 * Every request goes through the transport's `send`. An operation declares its requests: the
 * item's request and, from its answer, the requests that follow (`FollowUp`: Photo Post's results
 * after their status, Return All's pages); the loop here sends them. Only these call `send`
 * themselves: Add Many, whose requests carry many items (batches.ts), and the requests for no
 * input item (a trigger's activation hooks, the editor's list search). Wait for Completion is an
 * operation's own business: it wraps its `prepare` (waiting/wait.ts).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem } from '../errorOutput';
import { notSentAgain, retryMemory, type Remembered } from '../host/retryMemory';
import type { OperationsOf } from '../operationTable';
import { refuseUnreachableCallbacks, type CallbackSource } from './callbackReachability';
import { answerFailure } from './toolAnswer';
import {
	fetchAllPages,
	mayHaveBeenAccepted,
	send,
	toNodeError,
	type ServiceRequest,
} from './transport';

export type ItemOutput = IDataObject | IDataObject[];

/** A request and what its answer becomes: the answer itself without `toOutput`. */
export interface Step {
	request: ServiceRequest;
	/** A method, so that each operation types the answer it expects of its endpoint. */
	toOutput?(answer: unknown): Output | Promise<Output>;
}

/**
 * Return All: page 1, then every further page its answer counts (up to `maxPages`), `concurrency`
 * at a time; `toOutput` gets every page's items in page order.
 */
export interface Pages {
	pages: {
		request(page: number): ServiceRequest;
		/** A page's items, and how many pages there are; throws for an answer that is not a page. */
		read(answer: unknown, page: number): { items: IDataObject[]; totalPages: number };
		concurrency: number;
		maxPages?: number;
	};
	toOutput?(items: IDataObject[]): ItemOutput;
}

/** Requests that follow from an answer, declared by the operation, sent here for the same item. */
export class FollowUp {
	constructor(readonly next: Step | Pages) {}
}

export type Output = ItemOutput | FollowUp;

/** One item's request, built without sending anything, and what its answer becomes. */
export interface PreparedItem extends Step {
	/** Where the request's callback came from, for the refusal of one the service cannot reach. */
	callbackSource?: CallbackSource;
}

/**
 * One item's output read from the item itself, for an operation that asks the service nothing
 * (Scraping Delivery): it still gets the loop, Continue On Fail and item links. An empty list is
 * no output for that item.
 */
export interface AnsweredItem {
	output: ItemOutput;
}

/** An operation on one input item at a time. */
export interface ItemOperation {
	description: INodeProperties[];
	/** Reads and checks one item and builds its request, or gives its output; sends nothing. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem | AnsweredItem;
	/** Items one after the other, for an operation whose item already sends in parallel. */
	oneAtATime?: boolean;
}

/** An operation that runs the whole input itself (Add Many: many items to one request). */
export interface InputOperation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | InputOperation;

export type OperationTable = OperationsOf<Operation>;

/**
 * Requests in flight at once. Like the HTTP Request node, an item does not wait for the round trip
 * of the one before it, which is what a run costs on a real network; the bound keeps a large input
 * from running into the service's rate limit.
 */
export const ITEM_CONCURRENCY = 5;

/** Which operation the node's parameters name; `runOperation` does the rest. */
export function route(
	this: IExecuteFunctions,
	operations: OperationTable,
): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = operations[resource]?.[operationName];
	if (operation) return runOperation.call(this, operation);
	const unknown = new NodeOperationError(
		this.getNode(),
		`The operation "${operationName}" is not known for resource "${resource}"`,
	);
	return Promise.resolve(answerFailure.call(this, unknown));
}

interface Failure {
	itemIndex: number;
	error: ReturnType<typeof toNodeError>;
}

/**
 * Two phases: every item is prepared (no HTTP), its callback checked and the retry memory
 * consulted; then the requests go out, a few at a time. A bad item stops the preparing, and what
 * is before it is still sent, as a one-by-one loop would have; once a sent item fails, no further
 * one is started, and the first failing item is the one reported. Output keeps the input order.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: Operation,
): Promise<INodeExecutionData[][]> {
	try {
		if ('execute' in operation) return [await operation.execute.call(this)];
		const itemCount = this.getInputData().length;
		const continueOnFail = this.continueOnFail();
		const memory = retryMemory.call(this);
		const outputs: INodeExecutionData[][] = [];
		const failures: Failure[] = [];
		const fail = (itemIndex: number, error: unknown) => {
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			if (continueOnFail) outputs[itemIndex] = [errorItem.call(this, nodeError, itemIndex)];
			else failures.push({ itemIndex, error: nodeError });
		};

		const toSend: Array<{ itemIndex: number; prepared: PreparedItem; earlier?: Remembered }> = [];
		for (let itemIndex = 0; itemIndex < itemCount && failures.length === 0; itemIndex++) {
			try {
				const prepared = operation.prepare.call(this, itemIndex);
				if ('output' in prepared) {
					outputs[itemIndex] = linkedItems(prepared.output, itemIndex);
					continue;
				}
				const { request, callbackSource } = prepared;
				await refuseUnreachableCallbacks.call(this, request, itemIndex, callbackSource);
				// n8n's Retry On Fail runs this again with the same input: a submission the service
				// accepted in an earlier try is not sent again (a second job), and one it may have
				// accepted fails again unsent.
				const earlier = memory?.recall(itemIndex, request);
				if (earlier?.accepted === 'maybe') throw notSentAgain(earlier.error);
				toSend.push({ itemIndex, prepared, earlier });
			} catch (error) {
				fail(itemIndex, error);
			}
		}
		const failedBeforeSending = failures.length;

		const accepted: number[] = [];
		let next = 0;
		const sendNext = async () => {
			while (next < toSend.length && failures.length === failedBeforeSending) {
				const { itemIndex, prepared, earlier } = toSend[next++];
				const { request } = prepared;
				try {
					let answer: unknown;
					if (earlier?.accepted === true) answer = earlier.answer;
					else {
						try {
							answer = await send.call(this, { ...request, itemIndex });
						} catch (error) {
							if (mayHaveBeenAccepted(error)) {
								memory?.rememberMaybeAccepted(itemIndex, request, error as Error);
							}
							throw toNodeError(this.getNode(), error, itemIndex);
						}
						memory?.rememberAccepted(itemIndex, request, answer);
					}
					const output = await followUps.call(this, prepared, answer, itemIndex);
					outputs[itemIndex] = linkedItems(output, itemIndex);
					accepted.push(itemIndex);
				} catch (error) {
					fail(itemIndex, error);
				}
			}
		};
		const poolSize = Math.min(operation.oneAtATime ? 1 : ITEM_CONCURRENCY, toSend.length);
		await Promise.all(Array.from({ length: poolSize }, sendNext));

		const [failure] = failures.sort((a, b) => a.itemIndex - b.itemIndex);
		if (failure) {
			const labels = accepted.sort((a, b) => a - b).map((itemIndex) => `item ${itemIndex}`);
			throw withAcceptedNote(failure.error, 'item', labels);
		}
		return [outputs.flat()];
	} catch (error) {
		// As an AI agent's tool, a failure must reach the model in words (toolAnswer.ts).
		return answerFailure.call(this, error);
	}
}

/** The item's output from its first answer, sending the requests its operation declares after it. */
async function followUps(
	this: IExecuteFunctions,
	first: Step,
	answer: unknown,
	itemIndex: number,
): Promise<ItemOutput> {
	let output = first.toOutput ? await first.toOutput(answer) : (answer as ItemOutput);
	while (output instanceof FollowUp) {
		const step = output.next;
		if ('pages' in step) {
			const { pages } = step;
			const items = await fetchAllPages(async (page) => {
				const pageAnswer = await send.call(this, { ...pages.request(page), itemIndex });
				return pages.read(pageAnswer, page);
			}, pages);
			output = step.toOutput ? step.toOutput(items) : items;
		} else {
			const next = await send.call(this, { ...step.request, itemIndex });
			output = step.toOutput ? await step.toOutput(next) : (next as ItemOutput);
		}
	}
	return output;
}

/** An item's output as n8n items, each linked to the input item it came from. */
export function linkedItems(output: ItemOutput, itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(output) ? output : [output]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Running the workflow again would send what the service accepted a second time: say what. */
export function withAcceptedNote<E extends Failure['error']>(
	error: E,
	entryName: string,
	accepted: string[],
): E {
	if (accepted.length > 0) {
		const note = `${plural(accepted.length, entryName)} ${accepted.length === 1 ? 'was' : 'were'} already accepted by the service before the run stopped: do not send ${accepted.length === 1 ? 'it' : 'them'} again (${accepted.join('; ')}).`;
		error.description = `${error.description ?? ''} ${note}`.trim();
	}
	return error;
}
