/**
 * The router of every action node: the per-item loop, Continue On Fail and paired items. Wait for
 * Completion is not its business: an operation that waits declares it on its own `prepare`
 * (waiting/wait.ts), and the router sends what that gives.
 *
 * Which requests go through the router. Every request an action node makes for its input is
 * prepared by its operation (`prepare`, or `batch.prepare` for an operation whose requests carry
 * many items, Add Many; read, check, build; nothing sent) and sent by `runOperation` here, the one
 * pipeline: an item operation is a batch of one (batches.ts says how a batch operation's entries
 * are cut into requests). That gives every item the same checks before anything is sent, errors
 * that name the item, Retry On Fail's memory, item links and Continue On Fail. Every request goes
 * through the transport's `send`; only these call it themselves, and nothing else may:
 * - requests that follow from an item's answer, made in that item's `toOutput`: the further pages
 *   of Return All, and Photo Post results after their status;
 * - requests for no input item: a trigger's activation hooks and the editor's list search.
 *
 * n8n's Retry On Fail runs `execute()` again on the same input: a submission the service accepted
 * in an earlier try is answered from the retry memory (host/retryMemory.ts), never sent again.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem, failedItemJson } from '../errorOutput';
import { notSentAgain, retryMemory, type RetryMemory } from '../host/retryMemory';
import type { OperationsOf } from '../operationTable';
import { batchSubmission, type BatchOperation } from './batches';
import { refuseUnreachableCallbacks, type CallbackSource } from './callbackReachability';
import type {
	AnsweredEntry,
	Entry,
	EntryAnswer,
	ItemOutput,
	RefusedEntry,
	Submission,
} from './submission';
import { answerFailure } from './toolAnswer';
import { mayHaveBeenAccepted, send, toNodeError, type ServiceRequest } from './transport';

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

/**
 * One item's output read from the item itself, for an operation that asks the service nothing
 * (Scraping Delivery): the router still gives it the loop, Continue On Fail and item links. An
 * empty list is no output for that item.
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

export type { BatchOperation };

export type Operation = ItemOperation | BatchOperation;

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

interface ItemEntry extends Entry {
	prepared: PreparedItem;
}

function itemSubmission(this: IExecuteFunctions, operation: ItemOperation): Submission<ItemEntry> {
	return {
		entryName: 'item',
		entriesOf: (itemIndex) => {
			const prepared = operation.prepare.call(this, itemIndex);
			if ('output' in prepared) return [prepared];
			const { request, callbackSource } = prepared;
			return [{ itemIndex, label: `item ${itemIndex}`, request, callbackSource, prepared }];
		},
		allOrNothing: false,
		concurrency: operation.oneAtATime ? 1 : ITEM_CONCURRENCY,
		entriesPerRequest: 1,
		request: ([entry]) => entry.request,
		answersOf: (answer) => [{ accepted: answer }],
		toOutput: ({ prepared }, answer) =>
			prepared.toOutput ? prepared.toOutput(answer) : (answer as ItemOutput),
		describeAccepted: ({ label }) => label,
	};
}

interface Failure {
	itemIndex: number;
	error: NodeApiError | NodeOperationError;
}

interface Placed {
	position: number;
	entry: Entry;
}

/** Entries sent in one request, or one entry answered from the retry memory. */
interface Request {
	entries: Placed[];
	remembered?: { answer: unknown };
}

interface Refusal {
	label: string;
	itemIndex: number;
	message: string;
	status?: unknown;
}

/** What a run has come to so far. */
interface Run {
	context: IExecuteFunctions;
	submission: Submission<Entry>;
	continueOnFail: boolean;
	memory?: RetryMemory;
	/** One position per entry (or per item that failed whole), in input order. */
	outputs: INodeExecutionData[][];
	/** How a stopped run names each entry the service accepted, by position. */
	acceptedAs: string[];
	refusals: Refusal[];
	/** Failures after sending began, which stop the run without Continue On Fail. */
	failures: Failure[];
}

/**
 * The one pipeline. Two phases: every entry is prepared (no HTTP), its callback checked and the
 * retry memory consulted; then the requests are sent through a pool. Once an entry fails and the
 * run stops, no further request is started; the first failing item is what a one-by-one run
 * would have stopped at. Output keeps the input order, one position per entry.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: Operation,
): Promise<INodeExecutionData[][]> {
	try {
		const items = this.getInputData();
		const submission: Submission<Entry> =
			'batch' in operation
				? batchSubmission.call(this, operation, items)
				: itemSubmission.call(this, operation);
		const run: Run = {
			context: this,
			submission,
			continueOnFail: this.continueOnFail(),
			memory: retryMemory.call(this),
			outputs: [],
			acceptedAs: [],
			refusals: [],
			failures: [],
		};
		const { requests, preparationFailure } = await prepareRequests(run, items.length);

		let next = 0;
		const sendNext = async () => {
			while (next < requests.length && run.failures.length === 0) {
				const { entries, remembered } = requests[next++];
				const sent = entries.map(({ entry }) => entry);
				const itemIndex = sent[0].itemIndex;
				let answers: EntryAnswer[];
				try {
					answers = remembered
						? [{ accepted: remembered.answer }]
						: submission.answersOf(
								await send.call(this, { ...submission.request(sent), itemIndex }),
								sent,
							);
				} catch (error) {
					requestFailed(run, entries, error);
					continue;
				}
				await takeAnswers(run, entries, answers);
			}
		};
		const poolSize = Math.min(submission.concurrency, requests.length);
		await Promise.all(Array.from({ length: poolSize }, sendNext));

		const accepted = run.acceptedAs.filter((description) => description !== undefined);
		const failure = [...run.failures, ...(preparationFailure ? [preparationFailure] : [])].sort(
			(a, b) => a.itemIndex - b.itemIndex,
		)[0];
		if (failure) throw withAcceptedNote(failure.error, submission.entryName, accepted);
		if (run.refusals.length > 0 && !run.continueOnFail) {
			const entryCount = requests.reduce((count, { entries }) => count + entries.length, 0);
			throw refusalsError(this.getNode(), submission.entryName, run.refusals, entryCount, accepted);
		}
		return [run.outputs.flat()];
	} catch (error) {
		// As an AI agent's tool, a failure must reach the model in words (toolAnswer.ts).
		return answerFailure.call(this, error);
	}
}

/** An error item in the entry's place, or the failure that stops the run. */
function fail(
	run: Run,
	position: number,
	itemIndex: number,
	error: unknown,
	extra?: IDataObject,
): Failure | undefined {
	const itemError = toNodeError(run.context.getNode(), error, itemIndex);
	if (!run.continueOnFail) return { itemIndex, error: itemError };
	run.outputs[position] = [errorItem.call(run.context, itemError, itemIndex, extra)];
	return undefined;
}

/**
 * Phase 1, no HTTP to the service. A bad entry ends it; what is before it is still sent unless
 * the submission is all or nothing.
 */
async function prepareRequests(
	run: Run,
	itemCount: number,
): Promise<{ requests: Request[]; preparationFailure?: Failure }> {
	const { context, submission, memory, outputs } = run;
	const remembered: Request[] = [];
	const toSend: Placed[] = [];
	let preparationFailure: Failure | undefined;
	for (let itemIndex = 0; itemIndex < itemCount && !preparationFailure; itemIndex++) {
		let entries: Array<Entry | RefusedEntry | AnsweredEntry>;
		try {
			entries = submission.entriesOf(itemIndex);
		} catch (error) {
			preparationFailure = fail(run, outputs.push([]) - 1, itemIndex, error);
			continue;
		}
		for (const entry of entries) {
			const position = outputs.push([]) - 1;
			if ('error' in entry) {
				preparationFailure = fail(run, position, itemIndex, entry.error, entry.extra);
				if (preparationFailure) break;
				continue;
			}
			if ('output' in entry) {
				outputs[position] = outputItems(entry.output, itemIndex);
				continue;
			}
			try {
				const { request, callbackSource } = entry;
				await refuseUnreachableCallbacks.call(context, request, itemIndex, callbackSource);
				// n8n's Retry On Fail runs this again with the same input: an entry the service
				// accepted in an earlier try is not sent again (a second job), and one it may have
				// accepted fails again unsent.
				const earlier = memory?.recall(position, request);
				if (earlier?.accepted === true) {
					remembered.push({ entries: [{ position, entry }], remembered: earlier });
				} else if (earlier) throw notSentAgain(earlier.error);
				else toSend.push({ position, entry });
			} catch (error) {
				preparationFailure = fail(run, position, itemIndex, error);
				if (preparationFailure) break;
			}
		}
	}

	// The memory is per entry, so the requests of a retry may be cut differently.
	const requests = remembered;
	if (!(preparationFailure && submission.allOrNothing)) {
		for (let start = 0; start < toSend.length; start += submission.entriesPerRequest) {
			requests.push({ entries: toSend.slice(start, start + submission.entriesPerRequest) });
		}
	}
	return { requests, preparationFailure };
}

function requestFailed(run: Run, entries: Placed[], error: unknown) {
	if (mayHaveBeenAccepted(error)) {
		for (const { position, entry } of entries) {
			run.memory?.rememberMaybeAccepted(position, entry.request, error as Error);
		}
	}
	const itemIndex = entries[0].entry.itemIndex;
	const requestError = toNodeError(run.context.getNode(), error, itemIndex);
	if (!run.continueOnFail) {
		run.failures.push({ itemIndex, error: requestError });
		return;
	}
	for (const { position, entry } of entries) {
		run.outputs[position] = [errorItem.call(run.context, requestError, entry.itemIndex)];
	}
}

async function takeAnswers(run: Run, entries: Placed[], answers: EntryAnswer[]) {
	for (const [index, { position, entry }] of entries.entries()) {
		const answer = answers[index] ?? { accepted: {} };
		if ('refused' in answer) {
			const { refused: message, status, answer: body } = answer;
			run.refusals.push({ label: entry.label, itemIndex: entry.itemIndex, message, status });
			const json = failedItemJson(run.context, { ...body, error: message }, undefined, body);
			run.outputs[position] = [{ json, pairedItem: { item: entry.itemIndex } }];
			continue;
		}
		run.memory?.rememberAccepted(position, entry.request, answer.accepted);
		try {
			const output = await run.submission.toOutput(entry, answer.accepted);
			run.outputs[position] = outputItems(output, entry.itemIndex);
			run.acceptedAs[position] = run.submission.describeAccepted(entry, answer.accepted);
		} catch (error) {
			const failure = fail(run, position, entry.itemIndex, error);
			if (failure) run.failures.push(failure);
		}
	}
}

/** An entry's output as n8n items, each linked to the input item it came from. */
function outputItems(output: ItemOutput, itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(output) ? output : [output]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Running the workflow again would send what the service accepted a second time: say what. */
function withAcceptedNote(error: Failure['error'], entryName: string, accepted: string[]) {
	if (accepted.length > 0) {
		const note = `${plural(accepted.length, entryName)} ${accepted.length === 1 ? 'was' : 'were'} already accepted by the service before the run stopped: do not send ${accepted.length === 1 ? 'it' : 'them'} again (${accepted.join('; ')}).`;
		error.description = `${error.description ?? ''} ${note}`.trim();
	}
	return error;
}

function refusalsError(
	node: INode,
	entryName: string,
	refusals: Refusal[],
	entryCount: number,
	accepted: string[],
): NodeApiError {
	const [first] = refusals;
	return new NodeApiError(
		node,
		{ message: first.message },
		{
			message: `The service refused the ${entryName} of ${first.label}: ${first.message}`,
			description:
				`${refusals.length} of ${entryCount} ${entryName}s were refused (${refusals
					.map((r) => `${r.label}: ${r.message}`)
					.join('; ')}). The other ${accepted.length} were accepted` +
				(accepted.length > 0
					? `, so send only the refused ones again: ${accepted.join('; ')}.`
					: '.') +
				` Turn on "Continue On Fail" to get one output item per ${entryName} instead.`,
			httpCode: typeof first.status === 'number' ? String(first.status) : undefined,
			itemIndex: first.itemIndex,
		},
	);
}
