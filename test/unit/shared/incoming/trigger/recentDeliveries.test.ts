import { createHash } from 'node:crypto';

import {
	contentDigest,
	recordDelivery,
} from '../../../../../nodes/shared/incoming/trigger/recentDeliveries';

describe('delivery window', () => {
	it('classifies new, repeat and update, and keeps the window bounded', () => {
		const scope = `scope-${Math.random()}`;
		const at = new Date('2026-11-22T10:00:00Z');
		const later = new Date('2026-11-22T12:00:00Z');
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], at).status).toBe('new');
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], later).status).toBe('repeat');
		expect(recordDelivery(scope, 'reviewJob:1', 'd2', 3, [], later)).toMatchObject({
			status: 'update',
			previousAt: at.toISOString(),
		});
		// The first content is still remembered: a late retry of it is a repeat, not an update.
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], later).status).toBe('repeat');
		recordDelivery(scope, 'reviewJob:2', 'd', 3, [], later);
		const verdict = recordDelivery(scope, 'reviewJob:3', 'd', 3, [], later);
		expect(verdict.entries.map((entry) => entry.key)).toEqual([
			'reviewJob:1',
			'reviewJob:2',
			'reviewJob:3',
		]);
		expect(verdict.entries.map((entry) => entry.digest)).toEqual(['d2', 'd', 'd']);
		// d1 fell out of the window: its content is news again, against the d2 still remembered.
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], later).status).toBe('update');
		expect(recordDelivery(scope, 'reviewJob:5', 'd', 3, [], later).status).toBe('new');
	});

	it('starts from the persisted entries and ignores entries it cannot read', () => {
		const scope = `scope-${Math.random()}`;
		const persisted = [{ key: 'k', digest: 'd', at: '2026-01-01T00:00:00.000Z' }, 'reviewJob:9'];
		expect(recordDelivery(scope, 'k', 'd', 10, persisted).status).toBe('repeat');
		expect(recordDelivery(scope, 'reviewJob:9', 'x', 10, persisted).status).toBe('new');
	});
});

// The digest as it was first made (a key-sorted deep copy, stringified whole): deliveryKey embeds
// it, and users' Remove Duplicates histories hold those keys, so the streaming digest must match.
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (isPlainObject(value)) {
		const sorted: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) sorted[key] = canonical(value[key]);
		return sorted;
	}
	return value;
}

function referenceDigest(payload: unknown): string {
	return createHash('sha256')
		.update(JSON.stringify(canonical(payload)) ?? '')
		.digest('hex')
		.slice(0, 32);
}

function seeded(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

const TEXTS = [
	'Great place, would come back',
	'Ünïcödé – “quotes” and 日本語 and 🍕🍕',
	'line\nbreak\ttab "quoted" back\\slash \u0000\u001f\u2028\u2029',
	'lone \ud800 surrogate and \udc00 other half',
	'',
	'</script><!-- -->',
];
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, -1.5e300, 2 ** 53 + 2, Number.MAX_VALUE, 5e-324];
const KEYS = ['id', 'name', 'a', 'B', 'b', '_x', 'é', '日', '🍕', '', ' ', '10', '9', '0', '01'];

/** A random JSON value, as JSON.parse gives it (keys in the order they came). */
function randomValue(random: () => number, depth: number): unknown {
	const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
	const roll = random();
	if (depth > 4 || roll < 0.4) {
		const kind = Math.floor(random() * 5);
		if (kind === 0) return null;
		if (kind === 1) return random() < 0.5;
		if (kind === 2) return pick(NUMBERS);
		return pick(TEXTS);
	}
	if (roll < 0.65) {
		return Array.from({ length: Math.floor(random() * 5) }, () => randomValue(random, depth + 1));
	}
	const object: Record<string, unknown> = {};
	for (let count = Math.floor(random() * 6); count > 0; count--) {
		object[pick(KEYS)] = randomValue(random, depth + 1);
	}
	return object;
}

/** A review job like the service's first crawl, about `bytes` of JSON, built the way it arrives. */
function reviewJob(bytes: number): unknown {
	const random = seeded(37);
	const reviews: string[] = [];
	let size = 0;
	for (let index = 0; size < bytes; index++) {
		const review = JSON.stringify({
			id: `rv_${index.toString(36)}`,
			name: `Reviewer ${index}`,
			date: new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString(),
			rating_value: 1 + Math.floor(random() * 5),
			review_text: TEXTS[index % TEXTS.length].repeat(1 + (index % 4)),
			url: `https://reviews.example/r/${index}`,
			profile_picture: random() < 0.5 ? `https://reviews.example/u/${index}.png` : null,
			location: random() < 0.2 ? null : 'Lisbon, PT',
			verified_order: random() < 0.4,
			language_code: 'en',
			meta_data: JSON.stringify({ helpful_votes: Math.floor(random() * 20) }),
			response: random() < 0.25 ? 'Thank you for your review!' : null,
		});
		reviews.push(review);
		size += review.length + 1;
	}
	return JSON.parse(
		`{"job_id":556,"crawl_status":"complete","review_count":${reviews.length},` +
			`"meta_data":"{\\"origin\\":\\"test\\"}","reviews":[${reviews.join(',')}]}`,
	);
}

describe('content digest matches the digest made from a key-sorted copy', () => {
	it.each<[string, unknown]>([
		['undefined', undefined],
		['null', null],
		['true', true],
		['a number', 1e21],
		['minus zero', -0],
		['a string with escapes', TEXTS[2]],
		['an empty object', {}],
		['an empty array', []],
		['nested empties', { a: {}, b: [], c: [{}, [], [[]]] }],
		['numbers', { numbers: NUMBERS }],
		['unicode keys and values', { 日: TEXTS[1], é: TEXTS[3], '🍕': { '': TEXTS[2] } }],
		['keys in reverse order', { z: 1, y: { c: 3, b: 2, a: 1 }, x: [{ q: 1, p: 2 }] }],
		['array-index keys', { b: 1, 10: 2, 9: 3, 0: 4, '01': 5, '-1': 6, 4294967294: 7 }],
		['a key beyond the array indices', { 4294967295: 1, 4294967294: 2, a: 3 }],
		['undefined, functions and symbols', { a: undefined, b: [undefined, () => 1, Symbol('s')] }],
		['a function at the top', () => 1],
		['not-finite numbers', [Number.NaN, Number.POSITIVE_INFINITY, -Number.MAX_VALUE]],
		['a parsed __proto__ key', JSON.parse('{"b":1,"__proto__":{"x":1},"a":[{"__proto__":2}]}')],
		[
			'objects that are not plain',
			[new Date(0), Object.assign(Object.create(null), { b: 1, a: 2 })],
		],
		[
			'flat records among nested ones',
			[
				{ b: 1, a: 2 },
				{ b: { c: 1 }, a: 2 },
				{ b: 3, a: 4 },
			],
		],
	])('%s', (_, value) => {
		expect(contentDigest(value)).toBe(referenceDigest(value));
	});

	it('for random JSON values and their keys in any order', () => {
		const random = seeded(2026);
		for (let round = 0; round < 500; round++) {
			const value = randomValue(random, 0);
			expect(contentDigest(value)).toBe(referenceDigest(value));
			const reparsed: unknown = JSON.parse(JSON.stringify(canonical(value)) ?? 'null');
			if (reparsed !== null || value === null) {
				expect(contentDigest(reparsed)).toBe(contentDigest(value));
			}
		}
	});

	it('for a review job of several MiB, records of one shape following each other', () => {
		const job = reviewJob(3 * 2 ** 20) as { reviews: Array<Record<string, unknown>> };
		expect(contentDigest(job)).toBe(referenceDigest(job));
		// A record whose keys differ from its neighbours' must not take their order.
		const { id, ...rest } = job.reviews[1000];
		job.reviews[1000] = { ...rest, extra: '1', id };
		expect(contentDigest(job)).toBe(referenceDigest(job));
	});
});
