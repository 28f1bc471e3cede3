import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { repoRoot } from '../nodeClasses';

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

type Side = 'transport' | 'outgoing' | 'incoming' | 'waiting' | 'host' | 'both';

const SIDE_FOLDERS: Array<[Side, string]> = [
	['transport', 'outgoing/transport/'],
	['outgoing', 'outgoing/'],
	['incoming', 'incoming/'],
	['waiting', 'waiting/'],
	['host', 'host/'],
];

const side = (path: string): Side =>
	SIDE_FOLDERS.find(([, folder]) => path.startsWith(folder))?.[0] ?? 'both';

/**
 * What each side may import. Wait for Completion (waiting/) sends and receives, so it may use both
 * sides; neither side, nor what they share, knows it exists. The transport imports nothing outside
 * itself but what both sides share. host/ is the one door to n8n's internals: every side may go
 * through it, and it leans on nothing of the package.
 */
const mayImport: Record<Side, Side[]> = {
	transport: ['transport', 'both', 'host'],
	outgoing: ['outgoing', 'transport', 'both', 'host'],
	incoming: ['incoming', 'both', 'host'],
	waiting: ['waiting', 'outgoing', 'transport', 'incoming', 'both', 'host'],
	host: ['host'],
	both: ['both', 'host'],
};

/**
 * Reaches into n8n beyond its node interfaces, or probes of which n8n runs: only host/ may hold
 * them, so that a new n8n release that breaks one is looked for there alone.
 */
const HOST_INTERNALS: RegExp[] = [
	/getExecuteData/,
	/\bexecuteData\b/,
	/\bcustomData\b/,
	/\badditionalKeys\b/,
	/getWorkflowDataProxy/,
	/getRequestObject\(\)\s*as\b/,
	/\bas unknown as\b/,
	/\$execution\b/,
	/\$runIndex\b/,
	/\bresumeError\b/,
	/\.disabled\s*=/,
	/\bisToolExecution\b/,
	/\bisN8n2\(/,
];

/** A file's code without its comments and import paths, which may name what it does not reach. */
function codeOf(file: string): string {
	return readFileSync(file, 'utf8')
		.replace(/from '[^']*'/g, '')
		.replace(/\/\*[\s\S]*?\*\//g, '')
		.replace(/(^|\s)\/\/.*$/gm, '$1');
}

describe('nodes/shared is split by side', () => {
	const files = tsFiles(shared).map((file) => ({
		file: relative(shared, file),
		imports: importsOf(file),
	}));

	it("reaches n8n's internals only through host/, where every pattern is found", () => {
		const reaches = tsFiles(join(repoRoot, 'nodes')).flatMap((file) =>
			HOST_INTERNALS.filter((pattern) => pattern.test(codeOf(file))).map((pattern) => [
				side(relative(shared, file)),
				`${relative(repoRoot, file)}: ${pattern}`,
			]),
		);
		expect(reaches.filter(([where]) => where !== 'host')).toEqual([]);
		const inHost = new Set(reaches.map(([, reach]) => reach.split(': ')[1]));
		expect(HOST_INTERNALS.filter((pattern) => !inHost.has(String(pattern)))).toEqual([]);
	});

	it('has every side', () => {
		const sizes = Object.keys(mayImport).map(
			(each) => files.filter(({ file }) => side(file) === each).length,
		);
		expect(sizes.every((size, i) => size >= (Object.keys(mayImport)[i] === 'host' ? 1 : 3))).toBe(
			true,
		);
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
});

describe('the simulator and the shipped code', () => {
	const importsIn = (folder: string) =>
		tsFiles(join(repoRoot, folder)).flatMap((file) =>
			[...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map(([, target]) => ({
				file: relative(repoRoot, file),
				target: relative(repoRoot, resolve(dirname(file), target)),
			})),
		);

	it('shipped code imports nothing of the simulator or the tests', () => {
		const wrong = ['nodes', 'credentials'].flatMap((folder) =>
			importsIn(folder).filter(({ target }) => /^(simulator|test|bench|scripts)\//.test(target)),
		);
		expect(wrong).toEqual([]);
	});

	// The simulator names kinds, routes and schedule targets as the nodes do; what it imports of
	// them is the table alone, which imports nothing of the package.
	it('the simulator takes the endpoint table from nodes/, and nothing else', () => {
		const fromNodes = importsIn('simulator').filter(({ target }) => target.startsWith('nodes/'));
		expect(fromNodes.length).toBeGreaterThan(0);
		expect(fromNodes.filter(({ target }) => target !== 'nodes/shared/endpoints')).toEqual([]);
		expect(importsOf(join(shared, 'endpoints.ts'))).toEqual([]);
	});
});
