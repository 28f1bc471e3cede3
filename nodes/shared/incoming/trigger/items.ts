import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	normalizePayload,
	payloadRecords,
	type Outcome,
	type PayloadKind,
} from '../callbackPayload';

/**
 * What a trigger starts its workflow with: one item carrying the payload, or with Split Results
 * one per record. A delivery without records (a failed job, or a completed one that found nothing
 * new) still comes out as one item, so the delivery and its ID are seen. Every item carries
 * `recordCount` and a `deliveryKey` that is the same whenever the same content is delivered again
 * (on every record of it with Split Results: n8n's Remove Duplicates node keeps or drops the items
 * of one key together), so that node can drop repeats across executions and processes.
 */
export function deliveryItems(
	kind: PayloadKind,
	payload: IDataObject,
	head: IDataObject & { outcome: Outcome; deliveryKey: string },
	splitResults: boolean,
): INodeExecutionData[] {
	const normalized = normalizePayload(kind, payload);
	const records = payloadRecords(normalized) ?? [];
	const counted = { ...head, recordCount: records.length };
	if (splitResults && records.length > 0) {
		return records.map((record) => ({ json: { ...counted, record } }));
	}
	return [{ json: { ...counted, payload: normalized } }];
}

/** The key of one delivery: its kind and ID, and a digest of its content. */
export function deliveryKey(kind: PayloadKind, id: string | undefined, digest: string): string {
	return `${kind}:${id ?? ''}:${digest}`;
}
