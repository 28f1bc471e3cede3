import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem, failedItemJson } from '../errorOutput';
import { refuseUnreachableCallbacks } from './callbackReachability';
import {
	notSentAgain,
	retryMemory,
	send,
	markPossiblyCarriedOut,
	mayHaveBeenCarriedOut,
	toNodeError,
	type ServiceRequest,
} from './transport';

/** What one input item gives a batch operation: units to send, or one refused before sending. */
export type PreparedUnit =
	| {
			/** How messages name the unit: "item 3", or "profile 5 of item 0". */
			where: string;
			body: IDataObject;
	  }
	| {
			error: unknown;
			/** What the unit's error item carries besides the error (where it sits in its item). */
			extra?: IDataObject;
	  };

/**
 * An operation whose requests each carry the units of many input items (Add Many: one profile per
 * unit, up to Batch Size of them in one add_bulk request). It only reads, checks and builds; the
 * router sends the batches, keeps retries from sending a unit twice and shapes the output.
 */
export interface BatchOperation {
	description: INodeProperties[];
	batch: {
		/** How a unit is called in messages: "profile". */
		unitName: string;
		/**
		 * Reads what is the same for every item, then gives the units of each item. A thrown error
		 * fails that whole item; nothing is sent.
		 */
		prepare(
			this: IExecuteFunctions,
			items: INodeExecutionData[],
		): (itemIndex: number) => PreparedUnit[];
		size(this: IExecuteFunctions): number;
		request(bodies: IDataObject[]): ServiceRequest;
		/** How a stopped run names a unit the service took: its id and what it is. */
		describeAccepted(where: string, answer: IDataObject, body: IDataObject): string;
	};
}

interface Pending {
	/** Position in the output: one per unit, in input order. */
	slot: number;
	itemIndex: number;
	where: string;
	body: IDataObject;
}

interface Refusal {
	where: string;
	itemIndex: number;
	message: string;
	status?: unknown;
}

/**
 * Every unit is prepared before the first request, so a bad one never leaves half the input sent
 * and the rest not; then the batches go one after the other (the transport paces them). A batch
 * answer has one element per unit, in order; `success: false` is that unit's refusal.
 */
export async function runBatches(
	this: IExecuteFunctions,
	operation: BatchOperation,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { batch } = operation;
	const continueOnFail = this.continueOnFail();
	const node = this.getNode();

	const output: INodeExecutionData[] = [];
	const pending: Pending[] = [];
	const fail = (error: unknown, itemIndex: number, extra?: IDataObject) => {
		const itemError = toNodeError(node, error, itemIndex);
		if (!continueOnFail) throw itemError;
		output.push(errorItem.call(this, itemError, itemIndex, extra));
	};

	const unitsOf = batch.prepare.call(this, items);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		let units: PreparedUnit[];
		try {
			units = unitsOf(itemIndex);
		} catch (error) {
			fail(error, itemIndex);
			continue;
		}
		for (const unit of units) {
			if ('error' in unit) {
				fail(unit.error, itemIndex, unit.extra);
				continue;
			}
			try {
				await refuseUnreachableCallbacks.call(
					this,
					{ ...batch.request([]), body: unit.body },
					itemIndex,
					{
						field: unit.where === `item ${itemIndex}` ? undefined : `Callback URL of ${unit.where}`,
					},
				);
			} catch (error) {
				fail(error, itemIndex);
				continue;
			}
			pending.push({ slot: output.length, itemIndex, ...unit });
			output.push({ json: {}, pairedItem: { item: itemIndex } });
		}
	}

	const refused: Refusal[] = [];
	const accepted: string[] = [];
	const accept = ({ slot, itemIndex, where, body }: Pending, answer: IDataObject) => {
		accepted.push(batch.describeAccepted(where, answer, body));
		output[slot] = { json: answer, pairedItem: { item: itemIndex } };
	};

	// n8n's Retry On Fail runs this again with the same input: a unit that an earlier try got
	// accepted is not sent again (a second job), and one whose request may have been carried out
	// fails again unsent. Only the rest goes into this try's batches. The memory is per unit, so
	// the batches of a retry may be cut differently.
	const memory = retryMemory.call(this);
	const unitRequest = ({ body }: Pending) => batch.request([body]);
	const toSend: Pending[] = [];
	for (const unit of pending) {
		const earlier = memory?.recall(unit.slot, unitRequest(unit));
		if (earlier?.landed === true) accept(unit, earlier.answer as IDataObject);
		else if (earlier) fail(notSentAgain(earlier.error), unit.itemIndex);
		else toSend.push(unit);
	}

	const size = batch.size.call(this);
	for (let start = 0; start < toSend.length; start += size) {
		const units = toSend.slice(start, start + size);
		const firstItem = units[0].itemIndex;
		let answers: IDataObject[];
		try {
			const answer = await send.call(this, {
				...batch.request(units.map(({ body }) => body)),
				itemIndex: firstItem,
			});
			if (!Array.isArray(answer) || answer.length !== units.length) {
				// The service took the request: which of its units it carried out cannot be told.
				throw markPossiblyCarriedOut(
					new NodeOperationError(
						node,
						`The bulk response has ${Array.isArray(answer) ? answer.length : 'no'} elements for ${units.length} ${batch.unitName}s`,
						{ itemIndex: firstItem },
					),
				);
			}
			answers = answer as IDataObject[];
		} catch (error) {
			if (mayHaveBeenCarriedOut(error)) {
				for (const unit of units)
					memory?.mayHaveLanded(unit.slot, unitRequest(unit), error as Error);
			}
			const batchError = toNodeError(node, error, firstItem);
			if (!continueOnFail) {
				if (accepted.length > 0) {
					batchError.description =
						`${batchError.description ?? ''} ${accepted.length} ${batch.unitName}s of earlier batches were already queued, so do not send them again: ${accepted.join('; ')}.`.trim();
				}
				throw batchError;
			}
			for (const { slot, itemIndex } of units) {
				output[slot] = errorItem.call(this, batchError, itemIndex);
			}
			continue;
		}

		units.forEach((unit, position) => {
			const answer = answers[position] ?? {};
			if (answer.success === false) {
				const message = String(answer.message ?? `The service refused this ${batch.unitName}`);
				refused.push({
					where: unit.where,
					itemIndex: unit.itemIndex,
					message,
					status: answer.status,
				});
				output[unit.slot] = {
					json: failedItemJson(this, { ...answer, error: message }, undefined, answer),
					pairedItem: { item: unit.itemIndex },
				};
			} else {
				memory?.landed(unit.slot, unitRequest(unit), answer);
				accept(unit, answer);
			}
		});
	}

	if (refused.length > 0 && !continueOnFail) {
		throw refusedUnitsError.call(this, batch.unitName, refused, pending.length, accepted);
	}
	return output;
}

function refusedUnitsError(
	this: IExecuteFunctions,
	unitName: string,
	refused: Refusal[],
	total: number,
	accepted: string[],
): NodeApiError {
	const [first] = refused;
	return new NodeApiError(
		this.getNode(),
		{ message: first.message },
		{
			message: `The service refused the ${unitName} of ${first.where}: ${first.message}`,
			description:
				`${refused.length} of ${total} ${unitName}s were refused (${refused
					.map((r) => `${r.where}: ${r.message}`)
					.join('; ')}). The other ${accepted.length} were queued` +
				(accepted.length > 0
					? `, so send only the refused ones again: ${accepted.join('; ')}.`
					: '.') +
				` Turn on "Continue On Fail" to get one output item per ${unitName} instead.`,
			httpCode: typeof first.status === 'number' ? String(first.status) : undefined,
			itemIndex: first.itemIndex,
		},
	);
}
