import { readFileSync } from 'node:fs';

import {
	patternsFile,
	patternsPage,
	renderPatternsPage,
	type PatternsFile,
} from '../../../bench/lib/patternsTable';

const regenerate =
	'regenerate it and the table with "npm run bench -- --only=patterns" (a full run writes both)';

/** docs/many-profiles.md shows what `npm run bench` measured: its table is rendered from the JSON. */
describe('docs/many-profiles.md', () => {
	const measured = JSON.parse(readFileSync(patternsFile, 'utf8')) as PatternsFile;
	const page = readFileSync(patternsPage, 'utf8');

	it('holds the table the committed measurements render', () => {
		if (page !== renderPatternsPage(page, measured)) {
			throw new Error(
				`docs/many-profiles.md's table differs from docs/results/patterns.json: ${regenerate}`,
			);
		}
	});

	it('was measured by a full run, for 1, 20 and 1,000 profiles both ways', () => {
		if (measured.command !== 'npm run bench') {
			throw new Error(`docs/results/patterns.json is not from a full run: ${regenerate}`);
		}
		const cases = measured.measures.map((m) => `${m.pattern} ${m.profiles}`).sort();
		expect(cases).toEqual(
			['addMany 1', 'addMany 1000', 'addMany 20', 'loop 1', 'loop 1000', 'loop 20'].sort(),
		);
		for (const m of measured.measures) {
			expect(m.requests).toBeGreaterThan(0);
			expect(m.executions).toBeGreaterThan(0);
		}
	});

	it('is where the node and the README send users', () => {
		const source = readFileSync(`${__dirname}/../../../nodes/shared/waiting/wait.ts`, 'utf8');
		expect(source).toContain('/blob/main/docs/many-profiles.md');
		expect(readFileSync(`${__dirname}/../../../README.md`, 'utf8')).toContain(
			'(docs/many-profiles.md)',
		);
	});
});
