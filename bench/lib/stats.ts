export interface Summary {
	median: number;
	min: number;
	max: number;
	samples: number[];
}

export function summarize(samples: number[]): Summary {
	const sorted = [...samples].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median =
		sorted.length === 0
			? Number.NaN
			: sorted.length % 2
				? sorted[middle]
				: (sorted[middle - 1] + sorted[middle]) / 2;
	return { median, min: sorted[0] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN, samples };
}

export type Unit = 'ms' | 'x' | '/s' | 'MB' | 'MB/MiB' | 'count';

function formatValue(value: number, unit: Unit): string {
	if (!Number.isFinite(value)) return 'n/a';
	switch (unit) {
		case 'ms':
			return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
		case 'x':
			return `${value.toFixed(value >= 10 ? 1 : 2)}×`;
		case '/s':
			return `${Math.round(value).toLocaleString('en-US')}/s`;
		case 'MB':
			return `${Math.round(value)} MB`;
		case 'MB/MiB':
			return `${value.toFixed(1)} MB/MiB`;
		case 'count':
			return Math.round(value).toLocaleString('en-US');
	}
}

/** "median (min–max)": the spread is the whole range over the rounds, not an interval estimate. */
export function formatSummary(summary: Summary, unit: Unit): string {
	const median = formatValue(summary.median, unit);
	if (summary.samples.length < 2 || summary.min === summary.max) return median;
	return `${median} (${formatValue(summary.min, unit)}–${formatValue(summary.max, unit)})`;
}
