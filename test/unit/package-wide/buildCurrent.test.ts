import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { isBuildCurrent } from '../../e2e/harness/package';

/** A package folder whose sources are an hour old and whose dist/ was built a minute ago. */
function builtPackage(): string {
	const root = mkdtempSync(path.join(os.tmpdir(), 'build-current-'));
	const write = (file: string, content: string, minutesAgo: number) => {
		const full = path.join(root, file);
		mkdirSync(path.dirname(full), { recursive: true });
		writeFileSync(full, content);
		const at = new Date(Date.now() - minutesAgo * 60_000);
		utimesSync(full, at, at);
	};
	for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'gulpfile.js']) {
		write(file, '{}', 60);
	}
	write('nodes/Review/Review.node.ts', 'export {}', 60);
	write('nodes/Review/Review.node.test.ts', 'export {}', 60);
	write('nodes/Review/Review.node.json', '{"node":"review"}', 60);
	write('credentials/Api.credentials.ts', 'export {}', 60);
	write('icons/review.svg', '<svg/>', 60);
	write('dist/nodes/Review/Review.node.js', 'exports.a = 1', 1);
	write('dist/nodes/Review/Review.node.json', '{"node":"review"}', 60);
	write('dist/credentials/Api.credentials.js', 'exports.a = 1', 1);
	write('dist/icons/review.svg', '<svg/>', 60);
	return root;
}

describe('npm start builds only when dist/ is not what the build would write', () => {
	let root: string;
	beforeEach(() => (root = builtPackage()));
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('skips the build when every source is older than the compiled files', () => {
		expect(isBuildCurrent(root)).toBe(true);
	});

	it.each([
		[
			'a source edited after the build',
			() => writeFileSync(path.join(root, 'nodes/Review/Review.node.ts'), 'x'),
		],
		['a source added', () => writeFileSync(path.join(root, 'nodes/Review/Other.ts'), 'x')],
		['a source removed', () => rmSync(path.join(root, 'credentials/Api.credentials.ts'))],
		['an icon not copied', () => rmSync(path.join(root, 'dist/icons/review.svg'))],
		[
			'a codex file changed',
			() => writeFileSync(path.join(root, 'nodes/Review/Review.node.json'), '{}'),
		],
		['tsconfig changed', () => writeFileSync(path.join(root, 'tsconfig.build.json'), '{ }')],
		['no dist/', () => rmSync(path.join(root, 'dist'), { recursive: true })],
	])('builds after %s', (_case, change) => {
		change();
		expect(isBuildCurrent(root)).toBe(false);
	});
});
