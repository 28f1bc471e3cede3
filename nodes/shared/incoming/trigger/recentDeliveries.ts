import { createHash } from 'node:crypto';

import { isObject } from '../../dataObject';

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

/** How much JSON text is gathered before it goes to the hash: few `update` calls, little memory. */
const DIGEST_CHUNK = 64 * 1024;

/** An object's keys as they came, and the text of each in the order the digest takes them. */
interface KeyOrder {
	keys: string[];
	ordered: string[];
	/** `"key":` for each of `ordered`. */
	labels: string[];
}

/**
 * A digest of a delivery's content in which the order of object keys does not matter (the
 * service may serialise a retried body differently) but the order of array elements does.
 *
 * It hashes, piece by piece, exactly the text `JSON.stringify` gave for a key-sorted deep copy of
 * the payload (users' Remove Duplicates histories hold digests made that way, in `deliveryKey`),
 * without that copy or that text: for a 100 MiB delivery both were several times its size.
 */
export function contentDigest(payload: unknown): string {
	const hash = createHash('sha256');
	let pending = '';
	const flush = () => {
		hash.update(pending);
		pending = '';
	};
	// The records of a list share their keys: the order found for one serves the next at its depth.
	const orders: Array<KeyOrder | undefined> = [];
	const walk = (value: unknown, depth: number): void => {
		if (typeof value !== 'object' || value === null) {
			pending += JSON.stringify(value);
		} else if (Array.isArray(value)) {
			pending += '[';
			for (let index = 0; index < value.length; index++) {
				if (index > 0) pending += ',';
				const element: unknown = value[index];
				if (isOmitted(element)) pending += 'null';
				else walk(element, depth + 1);
				if (pending.length >= DIGEST_CHUNK) flush();
			}
			pending += ']';
		} else {
			const keys = Object.keys(value);
			let order = orders[depth];
			if (order === undefined || !sameKeys(order.keys, keys)) {
				const ordered = canonicalKeys(keys);
				order = { keys, ordered, labels: ordered.map((key) => `${JSON.stringify(key)}:`) };
				orders[depth] = order;
			}
			const { ordered, labels } = order;
			if (isFlatRecord(value, ordered)) {
				// Natively, in the list's order; the list would filter nested objects' keys too.
				pending += JSON.stringify(value, ordered);
				return;
			}
			let first = true;
			for (let index = 0; index < ordered.length; index++) {
				const child = (value as Record<string, unknown>)[ordered[index]];
				if (isOmitted(child)) continue;
				pending += first ? `{${labels[index]}` : `,${labels[index]}`;
				first = false;
				walk(child, depth + 1);
				if (pending.length >= DIGEST_CHUNK) flush();
			}
			pending += first ? '{}' : '}';
		}
	};
	if (!isOmitted(payload)) walk(payload, 0);
	flush();
	return hash.digest('hex').slice(0, 32);
}

/** A plain object whose values are not objects: its canonical text is JSON.stringify's. */
function isFlatRecord(value: object, keys: string[]): boolean {
	if (Object.getPrototypeOf(value) !== Object.prototype) return false;
	for (const key of keys) {
		const child = (value as Record<string, unknown>)[key];
		if (typeof child === 'object' && child !== null) return false;
	}
	return true;
}

function sameKeys(a: string[], b: string[]): boolean {
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
	return true;
}

/** What JSON.stringify leaves out of an object, and writes as null in an array. */
const isOmitted = (value: unknown) =>
	value === undefined || typeof value === 'function' || typeof value === 'symbol';

const isArrayIndex = (key: string) => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;

/**
 * The keys in the order the former key-sorted copy listed them: that copy was a plain object
 * built by assignment, so its array-index keys came first in numeric order, and a `__proto__` key
 * set its prototype instead of a property (the key was left out of the text).
 */
function canonicalKeys(keys: string[]): string[] {
	const sorted = [...keys].sort();
	let indices = 0;
	let proto = false;
	for (const key of sorted) {
		if (key === '__proto__') proto = true;
		else if (isArrayIndex(key)) indices++;
	}
	if (indices === 0 && !proto) return sorted;
	const named = sorted.filter((key) => key !== '__proto__' && !isArrayIndex(key));
	if (indices === 0) return named;
	const numbered = sorted.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
	return [...numbered, ...named];
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
