import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { repoRoot } from '../nodeClasses';

/**
 * A unit test sits where its source sits: nodes/<path>.ts is tested in test/unit/<path>.test.ts,
 * credentials/<name>.ts in test/unit/credentials/<name>.test.ts. Tests of the package as a whole
 * live in test/unit/package-wide/.
 */
const unitDir = join(repoRoot, 'test', 'unit');
const testFiles = (dir: string): string[] =>
	readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return testFiles(path);
		return entry.name.endsWith('.test.ts') ? [relative(unitDir, path).split(sep).join('/')] : [];
	});
const sourceOf = (test: string) => {
	const source = test.replace(/\.test\.ts$/, '.ts');
	return source.startsWith('credentials/') ? source : `nodes/${source}`;
};

describe('test/unit mirrors the source tree', () => {
	it('finds the tests it checks, this one among them', () => {
		expect(testFiles(unitDir)).toContain('package-wide/testLayout.test.ts');
		expect(
			['SocialScraper/actions/results.test.ts', 'credentials/ScrapingApi.credentials.test.ts'].map(
				sourceOf,
			),
		).toEqual(['nodes/SocialScraper/actions/results.ts', 'credentials/ScrapingApi.credentials.ts']);
	});

	it('has each test at the path of the source file it tests, or in package-wide/', () => {
		const outOfPlace = testFiles(unitDir).filter(
			(test) => !test.startsWith('package-wide/') && !existsSync(join(repoRoot, sourceOf(test))),
		);
		expect(outOfPlace).toEqual([]);
	});
});
