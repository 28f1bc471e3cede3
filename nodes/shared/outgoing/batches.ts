import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Entry, EntryAnswer, RefusedEntry, Submission } from './submission';
import { markMaybeAccepted, type ServiceRequest } from './transport';

/** What one input item gives a batch operation: entries to send, or one refused before sending. */
export type BatchEntry =
	| {
			/** How messages name the entry: "item 3", or "profile 5 of item 0". */
			label: string;
			body: IDataObject;
	  }
	| RefusedEntry;

/**
 * An operation whose requests each carry the entries of many input items (Add Many: one profile
 * per entry, up to Batch Size of them in one add_bulk request). It only reads, checks and builds;
 * the router's pipeline sends the batches, keeps retries from sending an entry twice and shapes
 * the output.
 */
export interface BatchOperation {
	description: INodeProperties[];
	batch: {
		/** How an entry is called in messages: "profile". */
		entryName: string;
		/**
		 * Reads what is the same for every item, then gives the entries of each item. A thrown error
		 * fails that whole item; nothing is sent.
		 */
		prepare(
			this: IExecuteFunctions,
			items: INodeExecutionData[],
		): (itemIndex: number) => BatchEntry[];
		size(this: IExecuteFunctions): number;
		request(bodies: IDataObject[]): ServiceRequest;
		/** How a stopped run names an entry the service accepted: its id and what it is. */
		describeAccepted(label: string, answer: IDataObject, body: IDataObject): string;
	};
}

interface BodyEntry extends Entry {
	body: IDataObject;
}

/**
 * Every entry is prepared before the first request, so a bad one never leaves half the input sent
 * and the rest not; then the batches go one after the other (the transport paces them). A batch
 * answer has one element per entry, in order; `success: false` is that entry's refusal.
 */
export function batchSubmission(
	this: IExecuteFunctions,
	{ batch }: BatchOperation,
	items: INodeExecutionData[],
): Submission<BodyEntry> {
	const entriesOf = batch.prepare.call(this, items);
	const node = this.getNode();
	return {
		entryName: batch.entryName,
		entriesOf: (itemIndex) =>
			entriesOf(itemIndex).map((entry) => {
				if ('error' in entry) return entry;
				const { label, body } = entry;
				const field = label === `item ${itemIndex}` ? 'Callback URL' : `Callback URL of ${label}`;
				const request = batch.request([body]);
				return { itemIndex, label, body, request, callbackSource: { field } };
			}),
		allOrNothing: true,
		concurrency: 1,
		entriesPerRequest: batch.size.call(this),
		request: (entries) => batch.request(entries.map(({ body }) => body)),
		answersOf(answer, entries): EntryAnswer[] {
			if (!Array.isArray(answer) || answer.length !== entries.length) {
				// The service took the request: which of its entries it accepted cannot be told.
				throw markMaybeAccepted(
					new NodeOperationError(
						node,
						`The bulk response has ${Array.isArray(answer) ? answer.length : 'no'} elements for ${entries.length} ${batch.entryName}s`,
						{ itemIndex: entries[0].itemIndex },
					),
				);
			}
			return (answer as IDataObject[]).map((element = {}) =>
				element.success === false
					? {
							refused: String(element.message ?? `The service refused this ${batch.entryName}`),
							status: element.status,
							answer: element,
						}
					: { accepted: element },
			);
		},
		toOutput: (_entry, answer) => answer as IDataObject,
		describeAccepted: ({ label, body }, answer) =>
			batch.describeAccepted(label, answer as IDataObject, body),
	};
}
