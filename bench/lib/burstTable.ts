import path from 'node:path';

import { RESUMER_LABEL, type BurstOutcome, type Resumer } from '../../test/e2e/harness/burst';

export const runningAtScalePage = path.join(__dirname, '..', '..', 'docs', 'running-at-scale.md');

/** One measured cell of the burst bench, as bench/results/full.json keeps it. */
export interface BurstCell {
	/** A receiver of deliveries, or what put the executions of a resume cell to wait. */
	receiver: 'trigger' | 'recurring' | 'webhook' | 'pattern' | Resumer;
	setting: string;
	front: string;
	patienceMs: number;
	outcome: BurstOutcome;
	started: number;
	lost: number;
	lastExecutionMs: number;
	/** Each n8n process's resident set when the burst began, by name. */
	startRssMb: Record<string, number>;
	/** Each n8n process's peak during the cell, by name. */
	peakRssMb: Record<string, number>;
}

export const RECEIVER_LABEL: Record<BurstCell['receiver'], string> = {
	trigger: 'Scraping Callback Trigger',
	recurring: 'Recurring Reviews Trigger',
	webhook: "n8n's Webhook node",
	pattern: "n8n's Webhook node → Scraping Delivery",
	...RESUMER_LABEL,
};

/**
 * What docs/running-at-scale.md shows of a matrix: n8n's default settings, one n8n and queue mode,
 * at the shorter patience. Every cell (the other settings, the longer patience, every process's
 * memory) is in bench/results/full.md, which the page links.
 */
export const PAGE_SETTINGS = ['defaults', 'queue mode, defaults'];
export const PAGE_PATIENCE_MS = 10_000;
export const pageCells = (cells: BurstCell[]): BurstCell[] =>
	cells.filter(
		(cell) => PAGE_SETTINGS.includes(cell.setting) && cell.patienceMs === PAGE_PATIENCE_MS,
	);

const header = (what: string, started: string, last: string) => [
	'n8n',
	'front',
	what,
	'answered in time',
	started,
	'lost',
	last,
	'memory, start → peak',
];

/** A Markdown table with its columns padded to one width, as Prettier writes it. */
export function markdownTable(head: string[], rows: string[][]): string[] {
	const width = (text: string) => [...text].length;
	const widths = head.map((title, column) =>
		Math.max(3, width(title), ...rows.map((row) => width(row[column]))),
	);
	const line = (cells: string[]) =>
		`| ${cells.map((cell, column) => cell + ' '.repeat(widths[column] - width(cell))).join(' | ')} |`;
	return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** The burst rows docs/running-at-scale.md shows. */
export function burstTable(cells: BurstCell[], count: number): string {
	return [
		`${count.toLocaleString('en-US')} deliveries at once, each sender giving up after ${PAGE_PATIENCE_MS / 1000} s, n8n's default settings. Columns: one n8n or queue mode (main, two webhook processes, two workers) · what is in front of n8n · receiver · answered 200 in time · executions started · lost · last execution ended after · resident memory of the n8n process that grew most, when the burst began → its peak (the cells of one run share an n8n, which keeps what the cells before took)`,
		'',
		...markdownTable(header('receiver', 'started', 'last execution'), tableRows(pageCells(cells))),
	].join('\n');
}

/** The resume rows docs/running-at-scale.md shows. */
export function resumeTable(cells: BurstCell[], count: number): string {
	return [
		`${count.toLocaleString('en-US')} waiting executions, every callback at once, each sender giving up after ${PAGE_PATIENCE_MS / 1000} s, n8n's default settings. Columns: one n8n or queue mode · what is in front of n8n (the resume URL's origin) · what the executions wait in · answered 200 in time · executions resumed · lost (still waiting) · last resumed execution ended after · resident memory of the n8n process that grew most, when the callbacks went out → its peak`,
		'',
		...markdownTable(header('waiting in', 'resumed', 'last resume'), tableRows(pageCells(cells))),
	].join('\n');
}

function tableRows(cells: BurstCell[]): string[][] {
	return cells.map((cell) => [
		cell.setting === 'defaults' ? 'one n8n' : 'queue mode',
		cell.front,
		RECEIVER_LABEL[cell.receiver],
		`${cell.outcome.answeredInTime.toLocaleString('en-US')}`,
		cell.started.toLocaleString('en-US'),
		cell.lost === 0 ? '0' : `**${cell.lost.toLocaleString('en-US')}**`,
		`${(cell.lastExecutionMs / 1000).toFixed(1)} s`,
		grewMost(cell),
	]);
}

/** The process that grew most during the cell, as `name start → peak MB` (its name in queue mode). */
function grewMost(cell: BurstCell): string {
	const [name] = Object.keys(cell.peakRssMb).sort(
		(a, b) => cell.peakRssMb[b] - cell.startRssMb[b] - (cell.peakRssMb[a] - cell.startRssMb[a]),
	);
	const mb = (value: number) => value.toLocaleString('en-US');
	return `${name} ${mb(cell.startRssMb[name])} → ${mb(cell.peakRssMb[name])} MB`;
}

/** Each process's resident memory when the burst began and at its peak. */
export function rssText(cell: BurstCell): string {
	return Object.entries(cell.peakRssMb)
		.map(([name, peak]) => {
			const start = cell.startRssMb[name];
			return `${name} ${start.toLocaleString('en-US')} → ${peak.toLocaleString('en-US')} MB`;
		})
		.join(', ');
}

/** `page` with its `name` block (`<!-- name:start -->` … `<!-- name:end -->`) replaced by `table`. */
function withBlock(page: string, name: string, table: string): string {
	const START = `<!-- ${name}:start -->`;
	const END = `<!-- ${name}:end -->`;
	const start = page.indexOf(START);
	const end = page.indexOf(END);
	if (start < 0 || end < start)
		throw new Error(`docs/running-at-scale.md has no ${START} … ${END} block`);
	return `${page.slice(0, start + START.length)}\n\n${table}\n\n${page.slice(end)}`;
}

export const withBurstTable = (page: string, table: string) =>
	withBlock(page, 'burst-table', table);
export const withResumeTable = (page: string, table: string) =>
	withBlock(page, 'resume-table', table);
