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

type Side = 'outgoing' | 'incoming' | 'waiting' | 'both';

const side = (path: string): Side =>
	path.startsWith('outgoing')
		? 'outgoing'
		: path.startsWith('incoming')
			? 'incoming'
			: path.startsWith('waiting')
				? 'waiting'
				: 'both';

/**
 * What each side may import. Wait for Completion (waiting/) sends and receives, so it may use both
 * sides; neither side, nor what they share, knows it exists.
 */
const mayImport: Record<Side, Side[]> = {
	outgoing: ['outgoing', 'both'],
	incoming: ['incoming', 'both'],
	waiting: ['waiting', 'outgoing', 'incoming', 'both'],
	both: ['both'],
};

describe('nodes/shared is split by side', () => {
	const files = tsFiles(shared).map((file) => ({
		file: relative(shared, file),
		imports: importsOf(file),
	}));

	it('has every side', () => {
		for (const each of Object.keys(mayImport)) {
			expect(files.filter(({ file }) => side(file) === each).length).toBeGreaterThan(2);
		}
	});

	it.each(Object.entries(mayImport))('%s code imports only %p', (from, allowed) => {
		const wrong = files
			.filter(({ file }) => side(file) === from)
			.flatMap(({ file, imports }) =>
				imports
					.filter((target) => !allowed.includes(side(target)))
					.map((target) => `${file} → ${target}`),
			);
		expect(wrong).toEqual([]);
	});

	it('Wait for Completion lives in waiting/ alone: no file elsewhere in nodes/shared names it', () => {
		const elsewhere = files
			.filter(({ file }) => side(file) !== 'waiting')
			.filter(({ file }) =>
				/putExecutionToWait|resumeUrl\b.*=.*evaluateExpression|customData\.set/.test(
					readFileSync(join(shared, file), 'utf8'),
				),
			)
			.map(({ file }) => file);
		expect(elsewhere).toEqual([]);
	});

	it('the transport imports nothing outside itself but what both sides share', () => {
		const wrong = files
			.filter(({ file }) => file.startsWith('outgoing/transport/'))
			.flatMap(({ file, imports }) =>
				imports
					.filter((target) => !target.startsWith('outgoing/transport/') && side(target) !== 'both')
					.map((target) => `${file} → ${target}`),
			);
		expect(wrong).toEqual([]);
	});
});
