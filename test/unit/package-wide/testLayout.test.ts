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

/**
 * Tests other branches of the same change move to their mirrored paths themselves; on this branch
 * they still sit where they were. Each name leaves this list when its move is merged (the test
 * below fails while a name here is no longer out of place).
 */
const movedByOtherBranches = [
	// Tests of nodes/shared/outgoing (the outgoing pipeline's branch).
	'callbackReachability.test.ts',
	'shared/errors.test.ts',
	'shared/pacing.test.ts',
	'shared/pagination.test.ts',
	'shared/retryMemory.test.ts',
	'shared/router.test.ts',
	'shared/transport.test.ts',
	'shared/validation.test.ts',
	'toolAnswer.test.ts',
	// Tests of nodes/shared/waiting, nodes/shared/incoming and the layering rule (the host
	// module's branch).
	'layering.test.ts',
	'shared/awaitedJob.test.ts',
	'shared/callbackPayload.test.ts',
	'shared/contentDigest.test.ts',
	'shared/executionCustomData.test.ts',
	'shared/recentDeliveries.test.ts',
	'shared/waitsInTurnHint.test.ts',
];

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
		expect(outOfPlace.filter((test) => !movedByOtherBranches.includes(test))).toEqual([]);
	});

	it('lists as moved elsewhere only tests still out of place here', () => {
		expect(movedByOtherBranches.filter((test) => !outOfPlace.includes(test))).toEqual([]);
	});
});
