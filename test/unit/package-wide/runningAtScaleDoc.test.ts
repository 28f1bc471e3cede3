import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import {
	burstTable,
	PAGE_SETTINGS,
	pageCells,
	resumeTable,
	runningAtScalePage,
	withBurstTable,
	withResumeTable,
	type BurstCell,
} from '../../../bench/lib/burstTable';

const full = JSON.parse(readFileSync(`${__dirname}/../../../bench/results/full.json`, 'utf8'));
const burst = full.results.find((result: { id: string }) => result.id === 'burst') as
	{ params: { count: number }; raw: { cells: BurstCell[] } } | undefined;
const resumes = full.results.find((result: { id: string }) => result.id === 'resume-burst') as
	{ params: { count: number }; raw: { cells: BurstCell[] } } | undefined;
const regenerate =
	'regenerate both with "npm run bench -- --only=burst --update" (about half an hour)';
const regenerateResumes = 'regenerate both with "npm run bench -- --only=resume-burst --update"';

const root = join(__dirname, '..', '..', '..');
const filesUnder = (folder: string): string[] =>
	readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});

/**
 * docs/running-at-scale.md shows the rows of the burst and resume matrices that `npm run bench`
 * measured on n8n's defaults; bench/results/full.md holds every cell.
 */
describe('docs/running-at-scale.md', () => {
	const page = readFileSync(runningAtScalePage, 'utf8');

	it('fits a reader: at most 120 lines, tables included', () => {
		expect(page.split('\n').length - 1).toBeLessThanOrEqual(120);
	});

	it("shows n8n's default settings only, and links bench/results/full.md for every cell", () => {
		const shown = pageCells([...(burst?.raw.cells ?? []), ...(resumes?.raw.cells ?? [])]);
		expect(new Set(shown.map((cell) => cell.setting))).toEqual(new Set(PAGE_SETTINGS));
		expect(page).toContain('](../bench/results/full.md)');
	});

	it('holds the burst rows of bench/results/full.json', () => {
		if (!burst) throw new Error(`bench/results/full.json has no burst results: ${regenerate}`);
		const expected = withBurstTable(page, burstTable(burst.raw.cells, burst.params.count));
		if (page !== expected) {
			throw new Error(
				`docs/running-at-scale.md's burst-table block differs from bench/results/full.json: ${regenerate}`,
			);
		}
	});

	it('has every delivery through the shipped HAProxy front start an execution, in regular and queue mode', () => {
		const proxied = burst?.raw.cells.filter((cell) => cell.front.startsWith('HAProxy')) ?? [];
		expect(proxied.map((cell) => cell.setting)).toEqual(
			expect.arrayContaining(['defaults', 'queue mode, defaults']),
		);
		const lost = proxied.filter((cell) => cell.lost > 0);
		if (lost.length > 0) {
			throw new Error(
				`bench/results/full.json has deliveries lost behind the HAProxy front (${lost.map((cell) => `${cell.receiver}, ${cell.setting}: ${cell.lost}`).join('; ')}): find why (bench/workloads/burst.ts, deploy/haproxy.cfg), then ${regenerate}`,
			);
		}
	});

	it('holds the resume rows of bench/results/full.json', () => {
		if (!resumes) {
			throw new Error(`bench/results/full.json has no resume-burst results: ${regenerateResumes}`);
		}
		const expected = withResumeTable(page, resumeTable(resumes.raw.cells, resumes.params.count));
		if (page !== expected) {
			throw new Error(
				`docs/running-at-scale.md's resume-table block differs from bench/results/full.json: ${regenerateResumes}`,
			);
		}
	});

	it("has every resume through the shipped HAProxy front resume its execution, for Wait for Completion and n8n's Wait node", () => {
		const proxied = resumes?.raw.cells.filter((cell) => cell.front.startsWith('HAProxy')) ?? [];
		expect(proxied.map((cell) => cell.receiver)).toEqual(
			expect.arrayContaining(['waitForCompletion', 'waitNode']),
		);
		const lost = proxied.filter((cell) => cell.lost > 0);
		if (lost.length > 0) {
			throw new Error(
				`bench/results/full.json has resumes lost behind the HAProxy front (${lost.map((cell) => `${cell.receiver}, ${cell.setting}: ${cell.lost}`).join('; ')}): find why (bench/workloads/resumeBurst.ts, deploy/haproxy.cfg), then ${regenerateResumes}`,
			);
		}
	});

	it('has no file under deploy/ switch n8n to its legacy expression engine, which n8n calls insecure and is removing', () => {
		const legacy = filesUnder(join(root, 'deploy')).filter((file) =>
			/N8N_EXPRESSION_ENGINE\s*[=:]\s*['"]?legacy/.test(readFileSync(file, 'utf8')),
		);
		expect(legacy.map((file) => relative(root, file))).toEqual([]);
	});
});
