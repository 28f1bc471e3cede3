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

/** The burst matrix as docs/running-at-scale.md shows it. */
export function burstTable(cells: BurstCell[], count: number): string {
	return [
		`${count.toLocaleString('en-US')} deliveries at once. Columns: n8n settings · what is in front of n8n · receiver · sender's patience · answered 200 in time · executions started · lost · last execution ended after · resident memory of each n8n process when the burst began → its peak (the cells of one setting measured in one run share an n8n, which keeps what the cells before took)`,
		'',
		'| n8n | front | receiver | patience | answered in time | started | lost | last execution | memory, start → peak |',
		'| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
		...tableRows(cells),
	].join('\n');
}

/** The resume matrix as docs/running-at-scale.md shows it. */
export function resumeTable(cells: BurstCell[], count: number): string {
	return [
		`${count.toLocaleString('en-US')} waiting executions, every callback at once. Columns: n8n settings · what is in front of n8n (the resume URL's origin) · what the executions wait in · sender's patience · answered 200 in time · executions resumed · lost (still waiting) · last resumed execution ended after · each n8n process's resident memory when the callbacks went out → its peak (the cells of one setting measured in one run share an n8n, or a queue-mode cluster: main, webhook processes, workers)`,
		'',
		'| n8n | front | waiting in | patience | answered in time | resumed | lost | last resume | memory, start → peak |',
		'| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
		...tableRows(cells),
	].join('\n');
}

function tableRows(cells: BurstCell[]): string[] {
	const rows = cells.map((cell) =>
		[
			cell.setting,
			cell.front,
			RECEIVER_LABEL[cell.receiver],
			`${cell.patienceMs / 1000} s`,
			`${cell.outcome.answeredInTime.toLocaleString('en-US')}`,
			cell.started.toLocaleString('en-US'),
			cell.lost === 0 ? '0' : `**${cell.lost.toLocaleString('en-US')}**`,
			`${(cell.lastExecutionMs / 1000).toFixed(1)} s`,
			rssText(cell),
		].join(' | '),
	);
	return rows.map((row) => `| ${row} |`);
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
