import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../dataObject';
import { ENDPOINTS, type CallbackKind, type EndpointTable, type ShapeRule } from '../endpoints';

/** The triggers' Kinds options: the table's kinds, and what none of their shapes fits. */
export const PAYLOAD_KINDS: ReadonlyArray<{ name: string; value: string }> = [
	...ENDPOINTS.callbackKinds.map(({ name, value }) => ({ name, value })),
	{ name: 'Unrecognised', value: 'unknown' },
];

/** A callback kind's `value` in the endpoint table, or `unknown`. */
export type PayloadKind = string;

const unique = (values: readonly string[]) => [...new Set(values)];

/** Every field a payload of the table's kinds is identified by, in the table's order. */
export const idFieldsOf = (table: EndpointTable): string[] =>
	unique(table.callbackKinds.map(({ idField }) => idField));

/** Every list the table's kinds carry their records in, in the table's order. */
export const recordListsOf = (table: EndpointTable): string[] =>
	unique(table.callbackKinds.map(({ records }) => records));

/** The value at a key path (`a.b`: key `b` of the object at `a`), and whether it is there. */
function at(payload: IDataObject, path: string): { found: boolean; value?: unknown } {
	let value: unknown = payload;
	for (const key of path.split('.')) {
		if (!isObject(value) || !Object.hasOwn(value, key)) return { found: false };
		value = value[key];
	}
	return { found: true, value };
}

function fits(payload: IDataObject, rule: ShapeRule): boolean {
	const has = (path: string) => at(payload, path).found;
	return (
		(rule.has ?? []).every(has) &&
		(rule.hasOneOfEach ?? []).every((group) => group.some(has)) &&
		!(rule.lacks ?? []).some(has) &&
		(rule.notObjects ?? []).every((path) => !isObject(at(payload, path).value)) &&
		Object.entries(rule.equals ?? {}).every(([path, values]) =>
			(values as readonly unknown[]).includes(at(payload, path).value),
		) &&
		!Object.entries(rule.notEquals ?? {}).some(([path, values]) =>
			(values as readonly unknown[]).includes(at(payload, path).value),
		)
	);
}

function kindOf(payload: IDataObject, table: EndpointTable): CallbackKind | undefined {
	return table.callbackKinds.find(({ shapes }) => shapes.some((rule) => fits(payload, rule)));
}

/**
 * The kind is read from which keys the payload carries, not only their values, so that a failed
 * request whose `results`, `summary` or `pagination` are null is still told apart; the shapes are
 * the endpoint table's.
 */
export function recognizePayload(payload: IDataObject, table = ENDPOINTS): PayloadKind {
	return kindOf(payload, table)?.value ?? 'unknown';
}

/** The value of the first of `fields` (its kind's own first) that is neither missing nor null. */
function firstPresent(payload: IDataObject, own: string | undefined, fields: string[]): unknown {
	const ordered = own === undefined ? fields : [own, ...fields];
	const field = ordered.find((name) => payload[name] !== undefined && payload[name] !== null);
	return field === undefined ? undefined : payload[field];
}

/** The id the service retries deliveries under: its kind's id field (`job_id` of a review job). */
export function payloadId(payload: IDataObject, table = ENDPOINTS): string | undefined {
	const id = firstPresent(payload, kindOf(payload, table)?.idField, idFieldsOf(table));
	return id === undefined ? undefined : String(id);
}

/** The records a payload carries: its kind's list (`reviews` of a review job, else `results`). */
export function payloadRecords(payload: IDataObject, table = ENDPOINTS): IDataObject[] | undefined {
	const records = firstPresent(payload, kindOf(payload, table)?.records, recordListsOf(table));
	return Array.isArray(records) ? (records as IDataObject[]) : undefined;
}

/**
 * What became of the work a callback reports, the same values for every kind: `pending` is a
 * status that is not final or not known (the work may still end either way).
 */
export type Outcome = 'completed' | 'invalid_url' | 'failed' | 'pending';

const COMPLETED_STATUSES = ['completed', 'complete', 'success', 'succeeded', 'done'];
const FAILED_STATUSES = ['failed', 'login_required', 'error', 'cancelled', 'canceled'];

function outcomeOf(status: string): Outcome {
	if (status === 'invalid_url') return 'invalid_url';
	if (FAILED_STATUSES.includes(status)) return 'failed';
	return COMPLETED_STATUSES.includes(status) ? 'completed' : 'pending';
}

/**
 * A review job posts when its `crawl_status` is `complete` or `invalid_url`; the scrapers' status
 * records end `completed`, `failed` or `login_required` (`created` and `in_progress` are not
 * final). A status this code does not know is `pending`, never taken as completed. Only a payload
 * that carries no status at all is taken as completed, as the service only posts finished work.
 */
export function payloadOutcome(payload: IDataObject): Outcome {
	if (payload.success === false) return 'failed';
	if (typeof payload.crawl_status === 'string') {
		return outcomeOf(payload.crawl_status.toLowerCase());
	}
	if (typeof payload.status === 'string') return outcomeOf(payload.status.toLowerCase());
	return 'completed';
}

function parsedMetaData(record: IDataObject): IDataObject {
	if (typeof record.meta_data !== 'string') return record;
	try {
		const parsed: unknown = JSON.parse(record.meta_data);
		if (typeof parsed !== 'object' || parsed === null) return record;
		return { ...record, meta_data: parsed as IDataObject, meta_data_raw: record.meta_data };
	} catch {
		return record;
	}
}

/**
 * The service sends a review job's `meta_data` (and each review's) as a JSON string: it is parsed
 * into an object, the string kept as `meta_data_raw`. Other kinds are returned as they came.
 */
export function normalizePayload(kind: PayloadKind, payload: IDataObject): IDataObject {
	if (kind !== 'reviewJob') return payload;
	const job = parsedMetaData(payload);
	return Array.isArray(job.reviews)
		? {
				...job,
				reviews: (job.reviews as unknown[]).map((review) =>
					isObject(review) ? parsedMetaData(review) : review,
				) as IDataObject[],
			}
		: job;
}
