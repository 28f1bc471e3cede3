import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem, failedItemJson } from '../errorOutput';
import { notSentAgain, retryMemory } from '../host/retryMemory';
import { refuseUnreachableCallbacks } from './callbackReachability';
import { linkedItems, withAcceptedNote } from './router';
import {
	markMaybeAccepted,
	mayHaveBeenAccepted,
	send,
	toNodeError,
	type ServiceRequest,
} from './transport';

/** What one input item gives a bulk request: entries to send, or one refused before sending. */
export type BatchEntry =
	| {
			/** How messages name the entry: "item 3", or "profile 5 of item 0". */
			label: string;
			body: IDataObject;
	  }
	| { error: unknown; extra?: IDataObject };

/** A service endpoint that takes many entries in one request and answers for each (add_bulk). */
export interface Bulk {
	/** How messages call an entry: "profile". */
	entryName: string;
	/** Entries per request. */
	size: number;
	request(bodies: IDataObject[]): ServiceRequest;
	/** How a stopped run names an entry the service accepted: its id and what it is. */
	describeAccepted(label: string, answer: IDataObject, body: IDataObject): string;
}

interface Entry {
	itemIndex: number;
	label: string;
	body: IDataObject;
	/** Its request alone: what its callback is checked in and its retry memory is keyed by. */
	request: ServiceRequest;
	/** One per entry (or per item that failed whole), in input order: its output's place. */
	position: number;
}

interface Refusal {
	label: string;
	itemIndex: number;
	message: string;
	status?: unknown;
}

/**
 * The input's entries sent in bulk requests of `bulk.size`, one request after the other (the
 * transport paces them). Every entry is read and checked first: a bad one stops the run before
 * anything is sent, so the input is never left half sent. A bulk answer has one element per entry,
 * in order; `success: false` is that entry's refusal, which fails the run after the other entries
 * went through, naming what was accepted (Continue On Fail: an item per entry instead). Retry On
 * Fail's memory (host/retryMemory.ts) is kept per entry, so a retry's requests may be cut
 * differently and never carry an accepted entry again.
 */
export async function sendInBatches(
	this: IExecuteFunctions,
	entriesOf: (itemIndex: number) => BatchEntry[],
	bulk: Bulk,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const continueOnFail = this.continueOnFail();
	const memory = retryMemory.call(this);
	const outputs: INodeExecutionData[][] = [];
	const acceptedAs: string[] = [];
	const accepted = () => acceptedAs.filter((description) => description !== undefined);
	const stop = (error: NodeApiError | NodeOperationError) =>
		withAcceptedNote(error, bulk.entryName, accepted());
	const fail = (position: number, itemIndex: number, error: unknown, extra?: IDataObject) => {
		const nodeError = toNodeError(node, error, itemIndex);
		if (!continueOnFail) throw stop(nodeError);
		outputs[position] = [errorItem.call(this, nodeError, itemIndex, extra)];
	};
	const take = (entry: Entry, answer: IDataObject) => {
		memory?.rememberAccepted(entry.position, entry.request, answer);
		outputs[entry.position] = linkedItems(answer, entry.itemIndex);
		acceptedAs[entry.position] = bulk.describeAccepted(entry.label, answer, entry.body);
	};

	const toSend: Entry[] = [];
	let rememberedCount = 0;
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		let entries: BatchEntry[];
		try {
			entries = entriesOf(itemIndex);
		} catch (error) {
			fail(outputs.push([]) - 1, itemIndex, error);
			continue;
		}
		for (const found of entries) {
			const position = outputs.push([]) - 1;
			if ('error' in found) {
				fail(position, itemIndex, found.error, found.extra);
				continue;
			}
			const { label, body } = found;
			const request = bulk.request([body]);
			const field = label === `item ${itemIndex}` ? 'Callback URL' : `Callback URL of ${label}`;
			try {
				await refuseUnreachableCallbacks.call(this, request, itemIndex, { field });
				const earlier = memory?.recall(position, request);
				if (earlier?.accepted === 'maybe') throw notSentAgain(earlier.error);
				const entry = { itemIndex, label, body, request, position };
				if (!earlier) toSend.push(entry);
				else {
					take(entry, earlier.answer as IDataObject);
					rememberedCount++;
				}
			} catch (error) {
				fail(position, itemIndex, error);
			}
		}
	}

	const refusals: Refusal[] = [];
	for (let start = 0; start < toSend.length; start += bulk.size) {
		const batch = toSend.slice(start, start + bulk.size);
		const { itemIndex } = batch[0];
		const request = bulk.request(batch.map(({ body }) => body));
		let answers: IDataObject[];
		try {
			answers = elementsOf(node, await send.call(this, { ...request, itemIndex }), batch, bulk);
		} catch (error) {
			if (mayHaveBeenAccepted(error)) {
				for (const { position, request } of batch) {
					memory?.rememberMaybeAccepted(position, request, error as Error);
				}
			}
			const requestError = toNodeError(node, error, itemIndex);
			if (!continueOnFail) throw stop(requestError);
			for (const entry of batch) {
				outputs[entry.position] = [errorItem.call(this, requestError, entry.itemIndex)];
			}
			continue;
		}
		for (const [index, entry] of batch.entries()) {
			const answer = answers[index] ?? {};
			if (answer.success !== false) {
				take(entry, answer);
				continue;
			}
			const message = String(answer.message ?? `The service refused this ${bulk.entryName}`);
			refusals.push({
				label: entry.label,
				itemIndex: entry.itemIndex,
				message,
				status: answer.status,
			});
			const json = failedItemJson(this, { ...answer, error: message }, undefined, answer);
			outputs[entry.position] = [{ json, pairedItem: { item: entry.itemIndex } }];
		}
	}
	if (refusals.length > 0 && !continueOnFail) {
		const entryCount = toSend.length + rememberedCount;
		throw refusalsError(node, bulk.entryName, refusals, entryCount, accepted());
	}
	return outputs.flat();
}

/** One element per entry; otherwise which entries the service accepted cannot be told. */
function elementsOf(node: INode, answer: unknown, batch: Entry[], bulk: Bulk): IDataObject[] {
	if (Array.isArray(answer) && answer.length === batch.length) return answer as IDataObject[];
	throw markMaybeAccepted(
		new NodeOperationError(
			node,
			`The bulk response has ${Array.isArray(answer) ? answer.length : 'no'} elements for ${batch.length} ${bulk.entryName}s`,
			{ itemIndex: batch[0].itemIndex },
		),
	);
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
					? ` (${accepted.join('; ')}): send only the refused ones again.`
					: '.') +
				` Turn on "Continue On Fail" to get one output item per ${entryName} instead.`,
			httpCode: typeof first.status === 'number' ? String(first.status) : undefined,
			itemIndex: first.itemIndex,
		},
	);
}
