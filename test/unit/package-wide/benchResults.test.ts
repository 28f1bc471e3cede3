import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { markdown, resultsDir, type Report } from '../../../bench/lib/report';

// report.ts formats with prettier, which jest's VM cannot load; markdown() does not use it.
jest.mock('prettier', () => ({}));

/** Prettier as the bench formats its reports; in a child process (prettier 3 imports dynamically, which jest's VM refuses). */
const prettierBin = require.resolve('prettier/bin/prettier.cjs');
const formatted = (text: string, file: string): string =>
	execFileSync(process.execPath, [prettierBin, '--stdin-filepath', file], {
		input: text,
		encoding: 'utf8',
	});

/**
 * bench/results/<name>.md is written from <name>.json by the bench; the docs' figures are read from
 * the JSON (test/unit/package-wide/figures.test.ts). A Markdown table edited by hand, or a JSON
 * changed without its table, fails here, so the page the performance docs link says what the
 * figures test reads.
 */
describe('bench/results: each Markdown report is its JSON, rendered', () => {
	// diagnostic.{json,md} and latest.{json,md} are a local run's, ignored by git.
	it.each(['full', 'quick'])('%s.md', (name) => {
		const report = JSON.parse(
			readFileSync(path.join(resultsDir, `${name}.json`), 'utf8'),
		) as Report;
		const md = path.join(resultsDir, `${name}.md`);
		const rendered = formatted(markdown(report), md);
		// After a change of the report's layout: UPDATE_BENCH_MARKDOWN=1 renders the tables again.
		if (process.env.UPDATE_BENCH_MARKDOWN === '1') writeFileSync(md, rendered);
		expect(rendered).toBe(readFileSync(md, 'utf8'));
	});
});
