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

/** What a job takes here, in real milliseconds. */
export const JOB_MS = (SIMULATED_JOB_MINUTES * 60_000) / CLOCK_COMPRESSION;

/** Jobs whose durations add up: the loop waits for each in turn, Add Many's run side by side. */
export const jobsInTurn = (m: PatternMeasure) => (m.pattern === 'loop' ? m.profiles : 1);

/** A service-time span for people: minutes, hours or days. */
export function durationText(ms: number): string {
	const minutes = ms / 60_000;
	if (minutes < 90) return `${Math.max(1, Math.round(minutes))} min`;
	if (minutes < 48 * 60) return `${(minutes / 60).toFixed(1)} h`;
	return `${(minutes / 60 / 24).toFixed(1)} days`;
}

const secondsText = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** A measure's time to all results and n8n's own part of it, as the table says them. */
export function patternCells(m: PatternMeasure): { time: string; own: string } {
	const jobMinutes = SIMULATED_JOB_MINUTES * 60_000;
	if (m.resultsMs === null) {
		return {
			time: `at least ${durationText(m.profiles * jobMinutes)}: stopped after ${m.results.toLocaleString('en-US')} results`,
			own: `${secondsText(m.boundMs - m.results * JOB_MS)} for those ${m.results.toLocaleString('en-US')}`,
		};
	}
	const ownMs = m.resultsMs - jobsInTurn(m) * JOB_MS;
	return { time: durationText(jobsInTurn(m) * jobMinutes + ownMs), own: secondsText(ownMs) };
}

/**
 * The docs' table, rendered from the committed JSON (a unit test checks the page against it).
 * Only the jobs ran on the compressed clock: n8n's and the nodes' own time is real, so a row's
 * time is the jobs' 5 minutes (each in turn, or once) plus what n8n spent, as measured.
 */
export function patternsTable(file: PatternsFile): string {
	const lines = [
		'| Profiles | Pattern | Time to all results (jobs of 5 min) | Of which n8n and the nodes | Executions | Requests sent |',
		'| --- | --- | --- | --- | --- | --- |',
	];
	for (const m of file.measures) {
		const { time, own } = patternCells(m);
		lines.push(
			`| ${m.profiles.toLocaleString('en-US')} | ${PATTERN_NAME[m.pattern]} | ${time} | ${own} | ${m.executions.toLocaleString('en-US')} | ${m.requests.toLocaleString('en-US')} |`,
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
