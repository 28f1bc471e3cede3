import { mkdirSync, writeFileSync } from 'node:fs';
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

/**
 * Writes latest.{json,md} and <mode>.{json,md}, or only diagnostic.{json,md} for a run of a subset
 * or with changed n8n settings (it must not replace the figures of a whole run); returns the Markdown.
 */
export async function writeResults(report: Report, diagnostic: boolean): Promise<string> {
	mkdirSync(resultsDir, { recursive: true });
	const md = await formatted(markdown(report), path.join(resultsDir, 'latest.md'));
	const json = await formatted(JSON.stringify(report), path.join(resultsDir, 'latest.json'));
	for (const name of diagnostic ? ['diagnostic'] : ['latest', report.mode]) {
		writeFileSync(path.join(resultsDir, `${name}.json`), json);
		writeFileSync(path.join(resultsDir, `${name}.md`), md);
	}
	return md;
}
