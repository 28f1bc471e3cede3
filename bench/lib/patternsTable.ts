import path from 'node:path';

/** A job takes 5 minutes of the service's time, run on a clock compressed 1,000 times. */
export const SIMULATED_JOB_MINUTES = 5;
export const CLOCK_COMPRESSION = 1000;

export const patternsFile = path.join(__dirname, '..', '..', 'docs', 'results', 'patterns.json');
export const patternsPage = path.join(__dirname, '..', '..', 'docs', 'many-profiles.md');

export interface PatternMeasure {
	pattern: 'loop' | 'addMany';
	profiles: number;
	/** Null when the run was stopped at its time bound. */
	resultsMs: number | null;
	/** Results in by the end (all of them unless the bound stopped the run). */
	results: number;
	executions: number;
	requests: number;
	boundMs: number;
}

export interface PatternsFile {
	measuredAt: string;
	command: string;
	n8n: string;
	simulatedJobMinutes: number;
	clockCompression: number;
	measures: PatternMeasure[];
}

export const PATTERN_NAME: Record<PatternMeasure['pattern'], string> = {
	loop: 'Loop Over Items → Profile → Add, Wait for Completion',
	addMany: 'Add Many → Scraping Callback Trigger → Data Table',
};

export function minutesText(ms: number): string {
	const simulatedMinutes = (ms * CLOCK_COMPRESSION) / 60_000;
	if (simulatedMinutes >= 120) return `${(simulatedMinutes / 60).toFixed(1)} h`;
	return `${Math.round(simulatedMinutes)} min`;
}

/** The docs' table, rendered from the committed JSON (a unit test checks the page against it). */
export function patternsTable(file: PatternsFile): string {
	const lines = [
		'| Profiles | Pattern | Time to all results (service time) | Executions | Requests sent |',
		'| --- | --- | --- | --- | --- |',
	];
	for (const m of file.measures) {
		const time =
			m.resultsMs === null
				? `over ${minutesText(m.boundMs)} (${m.results} of ${m.profiles} in by then)`
				: minutesText(m.resultsMs);
		lines.push(
			`| ${m.profiles.toLocaleString('en-US')} | ${PATTERN_NAME[m.pattern]} | ${time} | ${m.executions.toLocaleString('en-US')} | ${m.requests.toLocaleString('en-US')} |`,
		);
	}
	return lines.join('\n');
}

const START = '<!-- patterns-table:start -->';
const END = '<!-- patterns-table:end -->';
/** The page's table block as the committed JSON renders it. */
export function renderPatternsPage(page: string, file: PatternsFile): string {
	const start = page.indexOf(START);
	const end = page.indexOf(END);
	if (start < 0 || end < start) throw new Error(`${patternsPage} has no ${START} … ${END} block`);
	return `${page.slice(0, start + START.length)}\n\n${patternsTable(file)}\n\n${page.slice(end)}`;
}
