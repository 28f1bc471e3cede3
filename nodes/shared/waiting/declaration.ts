import type { IDataObject, INode } from 'n8n-workflow';

import type { AnswerId, EndpointTable } from '../endpoints';
import { payloadRecords } from '../incoming/callbackPayload';

/** The field every resumed item carries, so a time-out (input items passed on) is easy to tell apart. */
export const WAIT_STATUS_FIELD = 'wait_status';

/** Reads a parameter of the waiting node, in execute() (for its item) or in the resume webhook. */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

/**
 * What a submit operation waits on when Wait for Completion is on. The operation wraps its
 * `prepare` with it (wait.ts), which then puts this execution's resume address where
 * `callbackParameter` would go (that field is hidden while waiting); once sent, the execution waits for the acknowledgement's `idField`; the shared resume webhook
 * (resume.ts) turns the delivery into items with `resumedItems`.
 */
export interface Waiting {
	/** The callback parameter the node fills itself while waiting (and hides). */
	callbackParameter: string;
	/** The field of the acknowledgement that the callback will carry. */
	idField: AnswerId;
	/** The node's first version whose time limit is an amount and a unit (minutes before it). */
	timeLimitInUnitsFrom: number;
	/** Whether the service answered with the results at once: then there is nothing to wait for. */
	answeredAtOnce?: (answer: IDataObject) => boolean;
	/** What waited-for results become, answered at once or delivered; `oneResumedItem` if unset. */
	resumedItems?: (payload: IDataObject, node: INode, parameter: ParameterReader) => IDataObject[];
}

/** Marks results that reached this node through its callback rather than from a time-out. */
export function completedResults(results: IDataObject[]): IDataObject[] {
	return results.map((json) => ({
		...json,
		[WAIT_STATUS_FIELD]: 'completed',
		outcome: 'completed',
	}));
}

/**
 * One resumed item holding the delivery's records. n8n links resumed item i to the waiting node's
 * input item i whatever the webhook says (`addPairedItemLineage`), and a waiting node has one input
 * item: a second resumed item would point at an input item that does not exist, and
 * `$('Earlier node').item` in any later node would fail. Split Out on the records list gives one
 * item per record with the link kept.
 */
export function oneResumedItem(payload: IDataObject, table?: EndpointTable): IDataObject[] {
	const count = payloadRecords(payload, table)?.length ?? 0;
	return [{ ...payload, result_count: payload.result_count ?? count }];
}
