import type { BurstCell } from '../../../bench/lib/burstTable';
import { cellKey, cellsOfFullRun, mergedCells, placeIn } from '../../../bench/lib/mergedCells';

const cell = (
	setting: string,
	receiver: BurstCell['receiver'],
	front: string,
	patienceMs: number,
	started: number,
): BurstCell => ({
	receiver,
	setting,
	front,
	patienceMs,
	outcome: {
		sent: 10,
		answeredInTime: started,
		refused: 0,
		gaveUp: 0,
		failed: 0,
		lastAnswerMs: null,
	},
	started,
	lost: 10 - started,
	lastExecutionMs: 1_000,
	startRssMb: { n8n: 500 },
	peakRssMb: { n8n: 600 },
});

const SETTINGS = ['defaults', 'volume'];
const RECEIVERS: Array<BurstCell['receiver']> = ['webhook', 'trigger', 'recurring'];
const order = (c: BurstCell) => [
	placeIn(SETTINGS, c.setting),
	c.patienceMs,
	placeIn(RECEIVERS, c.receiver),
	c.front === 'direct' ? 0 : 1,
];

/** A burst matrix measured in parts (bench/workloads/burst.ts, resumeBurst.ts) reads as one. */
describe('mergedCells', () => {
	const earlier = [
		cell('defaults', 'webhook', 'direct', 10_000, 10),
		cell('defaults', 'trigger', 'direct', 10_000, 4),
		cell('defaults', 'trigger', 'direct', 30_000, 9),
		cell('volume', 'trigger', 'direct', 10_000, 10),
	];

	it('puts new cells at their place in the matrix and keeps the cells not measured again', () => {
		const measured = [
			cell('volume', 'recurring', 'direct', 10_000, 10),
			cell('defaults', 'recurring', 'HAProxy', 10_000, 10),
			cell('defaults', 'recurring', 'direct', 10_000, 3),
		];
		expect(mergedCells(earlier, measured, order).map(cellKey)).toEqual([
			'defaults | direct | webhook | 10000',
			'defaults | direct | trigger | 10000',
			'defaults | direct | recurring | 10000',
			'defaults | HAProxy | recurring | 10000',
			'defaults | direct | trigger | 30000',
			'volume | direct | trigger | 10000',
			'volume | direct | recurring | 10000',
		]);
	});

	it('replaces a cell measured again with its new figures, once', () => {
		const again = cell('defaults', 'trigger', 'direct', 10_000, 7);
		const merged = mergedCells(earlier, [again], order);
		expect(merged).toHaveLength(earlier.length);
		expect(merged.filter((c) => cellKey(c) === cellKey(again))).toEqual([again]);
	});

	it('puts a setting it does not know after the known ones', () => {
		const unknown = cell('another', 'trigger', 'direct', 10_000, 10);
		expect(mergedCells(earlier, [unknown], order).at(-1)).toBe(unknown);
	});
});

describe('cellsOfFullRun', () => {
	it("reads bench/results/full.json's cells at the count they were measured at, none at another", () => {
		const kept = cellsOfFullRun('burst', 1000);
		expect(kept.length).toBeGreaterThan(0);
		expect(kept.every((c) => typeof c.started === 'number')).toBe(true);
		expect(cellsOfFullRun('burst', 20)).toEqual([]);
		expect(cellsOfFullRun('no-such-bench', 1000)).toEqual([]);
	});
});
