import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { repoRoot } from '../nodeClasses';

/**
 * A unit test sits where its source sits: nodes/<path>.ts is tested in test/unit/<path>.test.ts,
 * credentials/<name>.ts in test/unit/credentials/<name>.test.ts. Tests of the package as a whole
 * (its descriptions, docs, figures, every operation at once) live in test/unit/package-wide/.
 */
const unitDir = join(repoRoot, 'test', 'unit');
const PACKAGE_WIDE = 'package-wide/';

function testFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return testFiles(path);
		return entry.name.endsWith('.test.ts') ? [relative(unitDir, path).split(sep).join('/')] : [];
	});
}

function sourceOf(test: string): string {
	const source = test.replace(/\.test\.ts$/, '.ts');
	return source.startsWith('credentials/') ? source : `nodes/${source}`;
}

const outOfPlace = testFiles(unitDir).filter(
	(test) => !test.startsWith(PACKAGE_WIDE) && !existsSync(join(repoRoot, sourceOf(test))),
);

describe('test/unit mirrors the source tree', () => {
	it('finds the tests it checks, this one among them', () => {
		expect(testFiles(unitDir)).toContain(`${PACKAGE_WIDE}testLayout.test.ts`);
		expect(sourceOf('SocialScraper/actions/results.test.ts')).toBe(
			'nodes/SocialScraper/actions/results.ts',
		);
		expect(sourceOf('credentials/ScrapingApi.credentials.test.ts')).toBe(
			'credentials/ScrapingApi.credentials.ts',
		);
	});

	it('has each test at the path of the source file it tests, or in package-wide/', () => {
		expect(outOfPlace).toEqual([]);
	});
});
