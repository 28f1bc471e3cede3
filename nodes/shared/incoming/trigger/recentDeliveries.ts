import { createHash } from 'node:crypto';

import { isObject } from '../../json';

// n8n 2.41 saves the static data a webhook call writes only while the workflow's static data is
// still empty (starting the run resets its "changed" flag before it is saved), so memory is what
// recognises repeats within a process. Static data still carries the window across restarts as far
// as n8n saves it.
const MAX_SCOPES = 1000;

/** One remembered delivery: its kind and id, a digest of its content, and when it came. */
export interface DeliveryEntry {
	key: string;
	digest: string;
	at: string;
}

export type DeliveryVerdict =
	| { status: 'new'; entries: DeliveryEntry[] }
	| { status: 'update'; previousAt: string; entries: DeliveryEntry[] }
	| { status: 'repeat'; entries: DeliveryEntry[] };

const windows = new Map<string, DeliveryEntry[]>();

function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (isObject(value)) {
		const sorted: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) {
			sorted[key] = canonical(value[key]);
		}
		return sorted;
	}
	return value;
}

/**
 * A digest of a delivery's content in which the order of object keys does not matter (the
 * service may serialise a retried body differently) but the order of array elements does.
 */
export function contentDigest(payload: unknown): string {
	return createHash('sha256')
		.update(JSON.stringify(canonical(payload)) ?? '')
		.digest('hex')
		.slice(0, 32);
}

const isEntry = (value: unknown): value is DeliveryEntry =>
	isObject(value) && typeof value.key === 'string' && typeof value.digest === 'string';

/**
 * Records a delivery of `key` (kind and id) with content `digest` in the window of `scope` (a
 * workflow's trigger node). Only the same key with the same content is a repeat; the same key
 * with other content is an update (a re-sync), reported with the time of the latest earlier
 * delivery of that key. Check and record happen without yielding, so concurrent deliveries in one
 * process cannot both pass as new.
 */
export function recordDelivery(
	scope: string,
	key: string,
	digest: string,
	windowSize: number,
	persisted: unknown = [],
	now: Date = new Date(),
): DeliveryVerdict {
	const entries = windows.get(scope) ?? (Array.isArray(persisted) ? persisted.filter(isEntry) : []);
	let previousAt: string | undefined;
	for (const entry of entries) {
		if (entry.key !== key) continue;
		if (entry.digest === digest) return { status: 'repeat', entries };
		if (previousAt === undefined || entry.at > previousAt) previousAt = entry.at;
	}
	entries.push({ key, digest, at: now.toISOString() });
	entries.splice(0, Math.max(0, entries.length - windowSize));
	windows.delete(scope);
	windows.set(scope, entries);
	if (windows.size > MAX_SCOPES) windows.delete(windows.keys().next().value as string);
	return previousAt === undefined
		? { status: 'new', entries }
		: { status: 'update', previousAt, entries };
}

/** What a trigger keeps between deliveries: its window, as far as n8n saves static data. */
export interface DeliveryMemory {
	recentDeliveries?: unknown[];
}

export type DeliveryScreening =
	| { repeat: true }
	| { repeat: false; marks: { redelivery?: 'update'; previousDeliveryAt?: string } };

/**
 * Screens one delivery of `key` for a trigger node (`scope`): a repeat is to be answered and
 * dropped; anything else starts the workflow with `marks` (empty, or the re-sync's fields).
 */
export function screenDelivery(
	scope: string,
	key: string,
	digest: string,
	windowSize: number,
	memory: DeliveryMemory,
): DeliveryScreening {
	const delivery = recordDelivery(scope, key, digest, windowSize, memory.recentDeliveries);
	if (delivery.status === 'repeat') return { repeat: true };
	memory.recentDeliveries = delivery.entries.map((entry) => ({ ...entry }));
	return {
		repeat: false,
		marks:
			delivery.status === 'update'
				? { redelivery: 'update', previousDeliveryAt: delivery.previousAt }
				: {},
	};
}
