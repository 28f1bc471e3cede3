import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { BurstCell } from './burstTable';

// report.ts's resultsDir, not imported: report.ts loads prettier, which unit tests cannot.
const resultsDir = path.join(__dirname, '..', 'results');

/** What names a cell of a burst matrix: the same key measured again replaces the older figure. */
export const cellKey = (cell: BurstCell): string =>
	[cell.setting, cell.front, cell.receiver, cell.patienceMs].join(' | ');

/**
 * The cells of `benchId` that bench/results/full.json holds, when it measured `count` at once: what
 * a run of a few cells keeps of the matrix (a run at another count is a diagnosis and keeps none).
 */
export function cellsOfFullRun(benchId: string, count: number, file = 'full.json'): BurstCell[] {
	const json = path.join(resultsDir, file);
	if (!existsSync(json)) return [];
	const report = JSON.parse(readFileSync(json, 'utf8')) as {
		results: Array<{ id: string; params: { count?: number }; raw: { cells?: BurstCell[] } }>;
	};
	const result = report.results.find((r) => r.id === benchId);
	return result?.params.count === count ? (result.raw.cells ?? []) : [];
}

/**
 * `earlier` with `measured` in place of the cells of the same key and the new ones added, in the
 * matrix's order: `order` gives each cell's place (compared element by element), so that a table
 * measured in parts reads as one measured whole.
 */
export function mergedCells(
	earlier: BurstCell[],
	measured: BurstCell[],
	order: (cell: BurstCell) => number[],
): BurstCell[] {
	const byKey = new Map(earlier.map((cell) => [cellKey(cell), cell]));
	for (const cell of measured) byKey.set(cellKey(cell), cell);
	const compare = (a: number[], b: number[]) => {
		for (let i = 0; i < Math.max(a.length, b.length); i++) {
			const difference = (a[i] ?? 0) - (b[i] ?? 0);
			if (difference !== 0) return difference;
		}
		return 0;
	};
	return [...byKey.values()].sort((a, b) => compare(order(a), order(b)));
}

/** `value`'s place in `list`, unknown values after every known one. */
export const placeIn = <T>(list: readonly T[], value: T): number => {
	const index = list.indexOf(value);
	return index < 0 ? list.length : index;
};
