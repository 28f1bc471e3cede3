import { readFileSync } from 'node:fs';

import {
	burstTable,
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

/** docs/running-at-scale.md shows the burst matrix that `npm run bench` measured. */
describe('docs/running-at-scale.md', () => {
	const page = readFileSync(runningAtScalePage, 'utf8');

	it('holds the burst matrix of bench/results/full.json', () => {
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

	it('holds the resume matrix of bench/results/full.json', () => {
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
});
