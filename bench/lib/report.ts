import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import * as prettier from 'prettier';

import type { BenchResult } from './result';

export const resultsDir = path.join(__dirname, '..', 'results');

export interface Report {
	mode: 'quick' | 'full';
	command: string;
	startedAt: string;
	durationSeconds: number;
	machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; n8n: string };
	n8nEnv: Record<string, string>;
	/** A paired run (--baseline): what A (working tree) and B (baseline) were built from. */
	baseline?: {
		rev: string;
		commit: string;
		describe: string;
		workingTree: { commit: string; changed: boolean; describe: string };
	};
	results: BenchResult[];
	failures: Array<{ id: string; error: string }>;
	/** Benches measured again later by `--only=… --update`, their results replacing the older ones. */
	updates?: Array<{ ids: string[]; command: string; startedAt: string; durationSeconds: number }>;
}

const escape = (text: string) => text.replace(/\|/g, '\\|');

export function markdown(report: Report): string {
	const { machine } = report;
	const lines = [
		`Command: \`${report.command}\` (${report.mode} mode, ${report.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${report.durationSeconds} s). ` +
			`n8n ${machine.n8n}, Node ${machine.node}, ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGb} GB; ` +
			`n8n settings: ${Object.entries(report.n8nEnv)
				.map(([name, value]) => `${name}=${value}`)
				.join(
					', ',
				)}; successful executions not saved except in the intake bench (it counts them). ` +
			'Simulator on 127.0.0.1. Each cell: median (min–max) over the rounds; a ratio is taken per round, A and B having run side by side.',
		...(report.baseline
			? [
					'',
					`Paired run: A is the working tree (${report.baseline.workingTree.describe}), B the baseline \`${report.baseline.rev}\` (${report.baseline.describe}), ` +
						'built in a temporary folder with the same node_modules and installed in a second n8n beside the first; both n8n ran throughout.',
				]
			: []),
		...(report.updates ?? []).map(
			(update) =>
				`\nMeasured later, replacing the first run's figures: ${update.ids.map((id) => `\`${id}\``).join(', ')} by \`${update.command}\` (${update.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${update.durationSeconds} s).`,
		),
		'',
		'| Benchmark | Measure | A | B | Ratio | Goal | Met |',
		'|---|---|---|---|---|---|---|',
	];
	for (const result of report.results) {
		result.rows.forEach((row, index) => {
			const cells = [
				index === 0 ? `**${result.title}**` : '',
				row.measure,
				`${row.a.label}: ${row.a.value}`,
				row.b ? `${row.b.label}: ${row.b.value}` : '',
				row.ratio ?? '',
				row.goal ?? '',
				row.met === null ? '' : row.met ? 'yes' : '**no**',
			];
			lines.push(`| ${cells.map(escape).join(' | ')} |`);
		});
	}
	for (const failure of report.failures) {
		lines.push(
			`| **${failure.id}** | failed: ${escape(failure.error.slice(0, 200))} | | | | | **no** |`,
		);
	}
	const notes = report.results.flatMap((result) =>
		result.notes.map((note) => `- ${result.id}: ${note}`),
	);
	const loads = report.results
		.filter((result) => Array.isArray(result.params.loadAverage1m))
		.map((result) => `${result.id} ${(result.params.loadAverage1m as number[]).join('→')}`);
	if (loads.length) notes.push(`- machine load (1-minute average, start→end): ${loads.join(', ')}`);
	if (notes.length) lines.push('', 'Notes:', '', ...notes);
	return `${lines.join('\n')}\n`;
}

// Formatted as the repository's `npm run format` would, so a run leaves nothing for it to change.
async function formatted(text: string, file: string): Promise<string> {
	const options = await prettier.resolveConfig(file);
	return await prettier.format(text, { ...options, filepath: file });
}

/** The whole run's report with the benches of `update` measured again (in the same order). */
function merged(whole: Report, update: Report): Report {
	const ids = new Set([...update.results.map((r) => r.id), ...update.failures.map((f) => f.id)]);
	// The earlier runs of a bench that keeps some of their figures stay listed.
	const replaced = new Set(
		[...ids].filter((id) => !update.results.find((r) => r.id === id)?.keepsEarlierFigures),
	);
	const results = whole.results.filter((r) => !ids.has(r.id));
	for (const result of update.results) {
		const at = whole.results.findIndex((r) => r.id === result.id);
		results.splice(at < 0 ? results.length : Math.min(at, results.length), 0, result);
	}
	return {
		...whole,
		results,
		failures: [...whole.failures.filter((f) => !ids.has(f.id)), ...update.failures],
		updates: [
			...(whole.updates ?? [])
				.map((u) => ({ ...u, ids: u.ids.filter((id) => !replaced.has(id)) }))
				.filter((u) => u.ids.length),
			{
				ids: [...ids],
				command: update.command,
				startedAt: update.startedAt,
				durationSeconds: update.durationSeconds,
			},
		],
	};
}

/**
 * Writes latest.{json,md} and <mode>.{json,md} for a whole run; only diagnostic.{json,md} for a
 * run of a subset or with changed n8n settings (it must not replace the figures of a whole run);
 * for `update`, <mode>.{json,md} with the subset's results in place of the whole run's. Returns
 * the Markdown of what was run.
 */
export async function writeResults(
	run: Report,
	kind: 'whole' | 'diagnostic' | 'update',
): Promise<string> {
	mkdirSync(resultsDir, { recursive: true });
	const modeJson = path.join(resultsDir, `${run.mode}.json`);
	if (kind === 'update' && !existsSync(modeJson)) {
		throw new Error(`--update needs a whole run's ${modeJson} to update`);
	}
	const report =
		kind === 'update' ? merged(JSON.parse(readFileSync(modeJson, 'utf8')) as Report, run) : run;
	const md = await formatted(markdown(report), path.join(resultsDir, 'latest.md'));
	const json = await formatted(JSON.stringify(report), path.join(resultsDir, 'latest.json'));
	const names = { whole: ['latest', run.mode], diagnostic: ['diagnostic'], update: [run.mode] };
	for (const name of names[kind]) {
		writeFileSync(path.join(resultsDir, `${name}.json`), json);
		writeFileSync(path.join(resultsDir, `${name}.md`), md);
	}
	return md;
}
