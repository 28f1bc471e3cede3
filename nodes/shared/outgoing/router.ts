/**
 * The router of every action node: the per-item loop, as n8n's own v2 routers have it (each item's
 * operation, Continue On Fail, paired items), with what a paid submission needs besides: a few
 * items are in flight at once, Retry On Fail's memory (host/retryMemory.ts) answers a submission
 * the service accepted in an earlier try, and a stopped run names what the service already
 * accepted.
 *
 * Bad input, one rule for every operation: every item is read and checked (`prepare`, the
 * callback's reachability, the retry memory) before the first request, and an item refused there
 * stops the run with nothing sent, so that running it again sends no job twice. With Continue On
 * Fail the refused item becomes its error item and the others are sent.
 *
 * Every request goes through the transport's `send`, from here. An operation declares its
 * requests: the item's request and, from its answer, the requests that follow (`FollowUp`: Photo
 * Post's results after their status, Return All's pages), or its entries of bulk requests
 * (`Batched`: Add Many's profiles, many items to one request). Only the requests for no input item
 * call `send` themselves (a trigger's activation hooks, the editor's list search). Wait for
 * Completion is an operation's own business: it wraps its `prepare` (waiting/wait.ts).
 *
 * Some shapes serve one operation each, and stay because they are what its endpoint is:
 * `FollowUp` and `Pages` (Photo Post → Get Results: a status read before the results, which come
 * in pages), `Batched` (Add Many: the only endpoint that takes many items) and `AnsweredItem`
 * (Scraping Delivery → Read, which sends nothing but still gets the loop's Continue On Fail and
 * item links).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem, failedItemJson } from '../errorOutput';
import { notSentAgain, retryMemory, type Remembered } from '../host/retryMemory';
import type { OperationsOf } from '../operationTable';
import {
	elementsOf,
	refusalMessage,
	refusalsError,
	type BatchEntry,
	type Bulk,
	type Refusal,
} from './batches';
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

/**
 * An item's entries, sent together with the other items' entries in requests of `bulk.size`
 * (Add Many: profiles to add_bulk), each entry checked, remembered and answered on its own.
 */
export class Batched {
	constructor(
		readonly entries: BatchEntry[],
		readonly bulk: Bulk,
	) {}
}

/** An operation: reads its input one item at a time, the loop here sends what it declares. */
export interface Operation {
	description: INodeProperties[];
	/** Reads and checks one item and builds its request, or gives its output; sends nothing. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem | AnsweredItem | Batched;
	/**
	 * Requests one after the other: for an operation whose item already sends in parallel (Return
	 * All), or whose request carries many items (Add Many: a failed one stops the next).
	 */
	oneAtATime?: boolean;
}

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

type NodeError = ReturnType<typeof toNodeError>;

/** What one request stands for: an item's own, or an entry of a bulk request. */
interface Unit {
	itemIndex: number;
	/** Its place in the output, and what Retry On Fail's memory keys it by. */
	position: number;
	/** How a stopped run names it: "item 3", "profile 5 of item 0". */
	label: string;
	/** Its request alone: what its callback is checked in and the memory keys it by. */
	request: ServiceRequest;
	earlier?: Remembered;
	/** An item's own request: what its answer becomes. */
	prepared?: PreparedItem;
	/** An entry of a bulk request: its part of the request's body. */
	body?: IDataObject;
}

/** One request: an item's, a bulk request's entries, or one answered by an earlier try. */
interface Sending {
	units: Unit[];
	bulk?: Bulk;
}

/**
 * Two phases: every item is prepared (no HTTP), its callback checked and the retry memory
 * consulted; then the requests go out, a few at a time. Once a request fails, no further one is
 * started, and the first failing item is the one reported. Output keeps the input order. A bulk
 * answer's refused entries fail the run after the other requests went through, naming what was
 * accepted.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: Operation,
): Promise<INodeExecutionData[][]> {
	try {
		const node = this.getNode();
		const continueOnFail = this.continueOnFail();
		const memory = retryMemory.call(this);
		const outputs: INodeExecutionData[][] = [];
		const failures: Array<{ position: number; error: NodeError }> = [];
		const accepted: Array<{ position: number; label: string }> = [];
		const acceptedLabels = () =>
			accepted.sort((a, b) => a.position - b.position).map(({ label }) => label);
		const fail = (
			unit: Pick<Unit, 'itemIndex' | 'position'>,
			error: unknown,
			extra?: IDataObject,
		) => {
			const nodeError = toNodeError(node, error, unit.itemIndex);
			if (continueOnFail) {
				outputs[unit.position] = [errorItem.call(this, nodeError, unit.itemIndex, extra)];
			} else failures.push({ position: unit.position, error: nodeError });
		};
		const acceptedAs = (unit: Unit, answer: unknown, bulk?: Bulk) =>
			bulk ? bulk.describeAccepted(unit.label, answer as IDataObject, unit.body!) : unit.label;

		const toSend: Sending[] = [];
		const waiting = new Map<Bulk, Unit[]>();
		let entryName = 'item';
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			if (failures.length > 0) break;
			let prepared: PreparedItem | AnsweredItem | Batched;
			try {
				prepared = operation.prepare.call(this, itemIndex);
			} catch (error) {
				fail({ itemIndex, position: outputs.push([]) - 1 }, error);
				continue;
			}
			if ('output' in prepared) {
				outputs.push(linkedItems(prepared.output, itemIndex));
				continue;
			}
			const bulk = prepared instanceof Batched ? prepared.bulk : undefined;
			const parts = prepared instanceof Batched ? prepared.entries : [prepared];
			for (const part of parts) {
				const position = outputs.push([]) - 1;
				if ('error' in part) {
					fail({ itemIndex, position }, part.error, part.extra);
					continue;
				}
				const label = 'label' in part ? part.label : `item ${itemIndex}`;
				const unit: Unit =
					'request' in part
						? { itemIndex, position, label, request: part.request, prepared: part }
						: { itemIndex, position, label, request: bulk!.request([part.body]), body: part.body };
				const source =
					'request' in part
						? part.callbackSource
						: {
								field: label === `item ${itemIndex}` ? 'Callback URL' : `Callback URL of ${label}`,
							};
				try {
					await refuseUnreachableCallbacks.call(this, unit.request, itemIndex, source);
					// n8n's Retry On Fail runs this again with the same input: a submission the service
					// accepted in an earlier try is not sent again (a second job), and one it may have
					// accepted fails again unsent.
					unit.earlier = memory?.recall(position, unit.request);
					if (unit.earlier?.accepted === 'maybe') throw notSentAgain(unit.earlier.error);
				} catch (error) {
					fail(unit, error);
					continue;
				}
				if (unit.earlier) {
					accepted.push({ position, label: acceptedAs(unit, unit.earlier.answer, bulk) });
				}
				if (!bulk || unit.earlier) toSend.push({ units: [unit], bulk });
				else waiting.set(bulk, [...(waiting.get(bulk) ?? []), unit]);
				if (bulk) entryName = bulk.entryName;
			}
		}
		if (failures.length > 0) throw stopped(failures, entryName, acceptedLabels());
		for (const [bulk, units] of waiting) {
			for (let start = 0; start < units.length; start += bulk.size) {
				toSend.push({ units: units.slice(start, start + bulk.size), bulk });
			}
		}

		const refusals: Refusal[] = [];
		let next = 0;
		const sendNext = async () => {
			while (next < toSend.length && failures.length === 0) {
				const { units, bulk } = toSend[next++];
				const [{ itemIndex, earlier }] = units;
				let answers: unknown[];
				try {
					if (earlier?.accepted === true) answers = [earlier.answer];
					else {
						const request = bulk ? bulk.request(units.map(({ body }) => body!)) : units[0].request;
						const answer = await send.call(this, { ...request, itemIndex });
						answers = bulk ? elementsOf(node, answer, units.length, bulk, itemIndex) : [answer];
					}
				} catch (error) {
					for (const unit of units) {
						if (mayHaveBeenAccepted(error)) {
							memory?.rememberMaybeAccepted(unit.position, unit.request, error as Error);
						}
						fail(unit, error);
					}
					continue;
				}
				for (const [index, unit] of units.entries()) {
					const answer = answers[index];
					const refused = bulk && refusalMessage(answer as IDataObject, bulk);
					if (refused) {
						refusals.push({
							label: unit.label,
							itemIndex: unit.itemIndex,
							message: refused,
							status: (answer as IDataObject).status,
						});
						const element = answer as IDataObject;
						const json = failedItemJson(this, { ...element, error: refused }, undefined, element);
						outputs[unit.position] = [{ json, pairedItem: { item: unit.itemIndex } }];
						continue;
					}
					try {
						if (!unit.earlier) memory?.rememberAccepted(unit.position, unit.request, answer);
						const output = unit.prepared
							? await followUps.call(this, unit.prepared, answer, unit.itemIndex)
							: (answer as IDataObject);
						outputs[unit.position] = linkedItems(output, unit.itemIndex);
						// An answer its operation reads as a refusal (a failed status) throws above.
						if (!unit.earlier) {
							accepted.push({ position: unit.position, label: acceptedAs(unit, answer, bulk) });
						}
					} catch (error) {
						fail(unit, error);
					}
				}
			}
		};
		const poolSize = Math.min(operation.oneAtATime ? 1 : ITEM_CONCURRENCY, toSend.length);
		await Promise.all(Array.from({ length: poolSize }, sendNext));

		if (failures.length > 0) throw stopped(failures, entryName, acceptedLabels());
		if (refusals.length > 0 && !continueOnFail) {
			const entryCount = toSend.reduce((count, { units }) => count + units.length, 0);
			throw refusalsError(node, entryName, refusals, entryCount, acceptedLabels());
		}
		return [outputs.flat()];
	} catch (error) {
		// As an AI agent's tool, a failure must reach the model in words (toolAnswer.ts).
		return answerFailure.call(this, error);
	}
}

/** The first failing item's error, naming what the service accepted before the run stopped. */
function stopped(
	failures: Array<{ position: number; error: NodeError }>,
	entryName: string,
	accepted: string[],
): NodeError {
	const [first] = failures.sort((a, b) => a.position - b.position);
	return withAcceptedNote(first.error, entryName, accepted);
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
export function withAcceptedNote<E extends NodeError>(
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
