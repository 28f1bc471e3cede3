import type { BenchEnvironment } from './instance';
import { formatSummary, summarize, type Unit } from './stats';

export interface BenchContext {
	env: BenchEnvironment;
	quick: boolean;
}

export interface Cell {
	label: string;
	value: string;
}

export interface Row {
	measure: string;
	a: Cell;
	b?: Cell;
	ratio?: string;
	goal?: string;
	/** null: no goal. */
	met: boolean | null;
}

export interface BenchResult {
	id: string;
	title: string;
	params: Record<string, unknown>;
	rows: Row[];
	notes: string[];
	raw: Record<string, unknown>;
	/** Some of its figures are kept from the run it updates (a run of a few cells of a matrix). */
	keepsEarlierFigures?: boolean;
}

export function cell(label: string, samples: number[], unit: Unit): Cell {
	return { label, value: formatSummary(summarize(samples), unit) };
}

export function ratioCell(samples: number[]): string {
	return formatSummary(summarize(samples), 'x');
}

export const median = (samples: number[]) => summarize(samples).median;
