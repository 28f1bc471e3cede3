import type { BurstCell } from '../../../bench/lib/burstTable';
import { cellKey, cellsOfFullRun, mergedCells, placeIn } from '../../../bench/lib/mergedCells';

/** A cell named `setting | front | receiver | patience`; mergedCells reads no other figure than these. */
const cell = (key: string, started = 10): BurstCell => {
	const [setting, front, receiver, patience] = key.split(' | ');
	return { setting, front, receiver, patienceMs: Number(patience), started } as BurstCell;
};
const order = (c: BurstCell) => [
	placeIn(['defaults', 'volume'], c.setting),
	c.patienceMs,
	placeIn(['webhook', 'trigger', 'recurring'], c.receiver),
	c.front === 'direct' ? 0 : 1,
];

/** A burst matrix measured in parts (bench/workloads/burst.ts, resumeBurst.ts) reads as one. */
describe('mergedCells', () => {
	const earlier = [
		'defaults | direct | webhook | 10000',
		'defaults | direct | trigger | 10000',
		'defaults | direct | trigger | 30000',
		'volume | direct | trigger | 10000',
	].map((key) => cell(key));

	it('puts new cells at their place in the matrix and keeps the cells not measured again', () => {
		const measured = [
			'volume | direct | recurring | 10000',
			'defaults | HAProxy | recurring | 10000',
			'defaults | direct | recurring | 10000',
		];
		expect(
			mergedCells(
				earlier,
				measured.map((key) => cell(key)),
				order,
			).map(cellKey),
		).toEqual([
			'defaults | direct | webhook | 10000',
			'defaults | direct | trigger | 10000',
			'defaults | direct | recurring | 10000',
			'defaults | HAProxy | recurring | 10000',
			'defaults | direct | trigger | 30000',
			'volume | direct | trigger | 10000',
			'volume | direct | recurring | 10000',
		]);
	});

	it('replaces a cell measured again with its new figures, once; puts an unknown setting last', () => {
		const again = cell('defaults | direct | trigger | 10000', 7);
		const merged = mergedCells(earlier, [again], order);
		expect(merged).toHaveLength(earlier.length);
		expect(merged.filter((c) => cellKey(c) === cellKey(again))).toEqual([again]);
		const unknown = cell('another | direct | trigger | 10000');
		expect(mergedCells(earlier, [unknown], order).at(-1)).toBe(unknown);
	});
});

it("cellsOfFullRun reads bench/results/full.json's cells at the count they were measured at, none at another", () => {
	const kept = cellsOfFullRun('burst', 1000);
	expect(kept.length).toBeGreaterThan(0);
	expect(kept.every((c) => typeof c.started === 'number')).toBe(true);
	expect([cellsOfFullRun('burst', 20), cellsOfFullRun('no-such-bench', 1000)]).toEqual([[], []]);
});
