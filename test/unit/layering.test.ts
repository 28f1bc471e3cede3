import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { repoRoot } from './nodeClasses';

const shared = join(repoRoot, 'nodes', 'shared');

function tsFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return tsFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** The package files a file imports, as paths relative to nodes/shared. */
function importsOf(file: string): string[] {
	const source = readFileSync(file, 'utf8');
	return [...source.matchAll(/from '(\.[^']+)'/g)].map(([, target]) =>
		relative(shared, resolve(dirname(file), target)),
	);
}

const side = (path: string) =>
	path.startsWith('outgoing') ? 'outgoing' : path.startsWith('incoming') ? 'incoming' : 'both';

describe('nodes/shared is split by side', () => {
	const files = tsFiles(shared).map((file) => ({
		file: relative(shared, file),
		imports: importsOf(file),
	}));

	it('has both sides', () => {
		expect(files.filter(({ file }) => side(file) === 'outgoing').length).toBeGreaterThan(5);
		expect(files.filter(({ file }) => side(file) === 'incoming').length).toBeGreaterThan(5);
	});

	it('outgoing code (what is sent) imports nothing of the incoming side', () => {
		const wrong = files
			.filter(({ file }) => side(file) === 'outgoing')
			.flatMap(({ file, imports }) =>
				imports
					.filter((target) => side(target) === 'incoming')
					.map((target) => `${file} → ${target}`),
			);
		expect(wrong).toEqual([]);
	});

	it('incoming code (what is received) imports nothing of the outgoing side', () => {
		const wrong = files
			.filter(({ file }) => side(file) === 'incoming')
			.flatMap(({ file, imports }) =>
				imports
					.filter((target) => side(target) === 'outgoing')
					.map((target) => `${file} → ${target}`),
			);
		expect(wrong).toEqual([]);
	});

	it('what both sides share imports neither side', () => {
		const wrong = files
			.filter(({ file }) => side(file) === 'both')
			.flatMap(({ file, imports }) =>
				imports.filter((target) => side(target) !== 'both').map((target) => `${file} → ${target}`),
			);
		expect(wrong).toEqual([]);
	});
});
