import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { markMaybeAccepted, type ServiceRequest } from './transport';

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

export interface Refusal {
	label: string;
	itemIndex: number;
	message: string;
	status?: unknown;
}

/**
 * A bulk answer has one element per entry, in order; otherwise which entries the service accepted
 * cannot be told, and each of them may have been.
 */
export function elementsOf(
	node: INode,
	answer: unknown,
	count: number,
	bulk: Bulk,
	itemIndex: number,
): IDataObject[] {
	if (Array.isArray(answer) && answer.length === count) return answer as IDataObject[];
	throw markMaybeAccepted(
		new NodeOperationError(
			node,
			`The bulk response has ${Array.isArray(answer) ? answer.length : 'no'} elements for ${count} ${bulk.entryName}s`,
			{ itemIndex },
		),
	);
}

/** An element with `success: false` is that entry's refusal, the other entries' fate its own. */
export function refusalMessage(element: IDataObject, bulk: Bulk): string | undefined {
	if (element.success !== false) return undefined;
	return String(element.message ?? `The service refused this ${bulk.entryName}`);
}

/** The run's error when the service refused entries of bulk answers and accepted the others. */
export function refusalsError(
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
