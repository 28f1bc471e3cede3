import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import {
	burstTable,
	resumeTable,
	runningAtScalePage,
	withBurstTable,
	withResumeTable,
	type BurstCell,
} from '../../../bench/lib/burstTable';
import { patternsFile, patternsPage, renderPatternsPage } from '../../../bench/lib/patternsTable';
import { markdown, resultsDir, type Report } from '../../../bench/lib/report';
import { callbackKindsPage, withCallbackKinds } from '../../../scripts/callback-kinds-table';
import { packageNodes, repoRoot } from '../nodeClasses';

// report.ts formats with prettier, which jest's VM cannot load; markdown() does not use it.
jest.mock('prettier', () => ({}));

/**
 * The parts of the docs that a program writes: each is checked to be what its generator writes now
 * from its source, so a hand edit, or a source changed without its part, fails here.
 * `UPDATE_DOCS=1 npx jest test/unit/package-wide/generatedDocs.test.ts` writes them all again.
 * (The code map in CONTRIBUTING.md is test/engine/paths.test.ts's.)
 */
const read = (file: string) => readFileSync(file, 'utf8');
const json = <T>(file: string) => JSON.parse(read(file)) as T;
const benchCells = (id: string) => {
	const { results } = json<{ results: Array<{ id: string; params: any; raw: any }> }>(
		join(resultsDir, 'full.json'),
	);
	const result = results.find((entry) => entry.id === id)!;
	return [result.raw.cells as BurstCell[], result.params.count as number] as const;
};

/** Prettier as the bench runs it, in a child process (jest's VM refuses prettier 3's imports). */
const prettier = (text: string, file: string) =>
	execFileSync(
		process.execPath,
		[require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', file],
		{ input: text, encoding: 'utf8' },
	);

const GENERATED: Array<[part: string, file: string, render: (page: string) => string]> = [
	['callback kinds, from nodes/shared/endpoints.ts', callbackKindsPage, withCallbackKinds],
	[
		'the patterns table, from docs/results/patterns.json',
		patternsPage,
		(page) => renderPatternsPage(page, json(patternsFile)),
	],
	[
		"the burst and resume tables, from bench/results/full.json's burst and resume-burst",
		runningAtScalePage,
		(page) =>
			withResumeTable(
				withBurstTable(page, burstTable(...benchCells('burst'))),
				resumeTable(...benchCells('resume-burst')),
			),
	],
	...['full', 'quick'].map((name): [string, string, (page: string) => string] => {
		const file = join(resultsDir, `${name}.md`);
		const report = () => json<Report>(join(resultsDir, `${name}.json`));
		return [
			`the bench report, from bench/results/${name}.json`,
			file,
			() => prettier(markdown(report()), file),
		];
	}),
];

describe('generated parts of the docs', () => {
	it.each(
		GENERATED.map(
			([part, file, render]) => [part, relative(repoRoot, file), file, render] as const,
		),
	)('%s (%s)', (part, name, file, render) => {
		const page = read(file);
		const expected = render(page);
		if (process.env.UPDATE_DOCS === '1') writeFileSync(file, expected);
		else if (expected !== page) {
			throw new Error(
				`${name}: ${part} differs from what its generator writes now: ` +
					'UPDATE_DOCS=1 npx jest test/unit/package-wide/generatedDocs.test.ts (never edit it by hand).',
			);
		}
	});

	it("README's compatibility table is test/compat/results.json (node scripts/compat.mjs --table-only)", () => {
		const check = spawnSync(
			process.execPath,
			[join(repoRoot, 'scripts', 'compat.mjs'), '--table-only', '--check'],
			{ cwd: repoRoot, encoding: 'utf8' },
		);
		expect([check.status, check.stderr]).toEqual([0, '']);
	});

	// A compatibility row is worth what its commit is: one that never landed tells nobody what ran.
	it("names in the compatibility table only commits of this repository's history", () => {
		const runs = json<Array<{ commit: string }>>(join(repoRoot, 'test', 'compat', 'results.json'));
		const notInHistory = runs
			.map((run) => run.commit)
			.filter(
				(commit) =>
					spawnSync('git', ['merge-base', '--is-ancestor', commit, 'HEAD'], { cwd: repoRoot })
						.status !== 0,
			);
		expect(notInHistory).toEqual([]);
	});
});

/**
 * Which operations can wait for completion is said once, in the Wait for Completion column of each
 * node's page (the README and docs/results-delivery.md link those pages): checked here against
 * the nodes' descriptions, so a new operation that can wait fails until its row says so.
 */
describe("the node pages' operation tables", () => {
	type Option = { name: string; value: string };
	const optionsOf = (property?: INodeProperties) => (property?.options ?? []) as Option[];
	const nodes = packageNodes.map(({ node }) => node.description);
	const readme = read(join(repoRoot, 'README.md'));
	const nodesSection = readme.slice(readme.indexOf('## Nodes\n'));
	const pages = [
		...nodesSection
			.slice(0, nodesSection.indexOf('\n## ', 1))
			.matchAll(/^- \[([^\]]+)\]\((docs\/nodes\/[\w-]+\.md)\)/gm),
	];

	it("the README's Nodes list links each node's page", () => {
		expect(pages.map(([, name]) => name).sort()).toEqual(
			nodes.map(({ displayName }) => displayName).sort(),
		);
	});

	const canWait = nodes
		.flatMap(({ displayName, properties }) =>
			optionsOf(properties.find(({ name }) => name === 'resource')).flatMap((resource) =>
				optionsOf(
					properties.find(
						({ name, displayOptions }) =>
							name === 'operation' && displayOptions?.show?.resource?.includes(resource.value),
					),
				)
					.filter((operation) =>
						properties.some(
							({ name, displayOptions }) =>
								name === 'waitForCompletion' &&
								displayOptions?.show?.resource?.includes(resource.value) &&
								displayOptions?.show?.operation?.includes(operation.value),
						),
					)
					.map((operation) => `${displayName} → ${resource.name} → ${operation.name}`),
			),
		)
		.sort();

	/** Rows of "| Node | Resource | Operation | Endpoint | Wait for Completion |", blanks carried down. */
	function markedOnPage(page: string): string[] {
		const rows = read(join(repoRoot, page))
			.split('\n')
			.filter((line) => line.startsWith('| '))
			.map((line) =>
				line
					.slice(1, -1)
					.split('|')
					.map((cell) => cell.trim()),
			);
		const header = rows.findIndex(
			(cells) => cells.join() === 'Node,Resource,Operation,Endpoint,Wait for Completion',
		);
		if (header < 0) return [];
		let node = '';
		let resource = '';
		return rows
			.slice(header + 1)
			.filter((cells) => cells.length === 5)
			.flatMap(([nodeCell, resourceCell, operations, , wait]) => {
				node = nodeCell || node;
				resource = resourceCell || resource;
				return wait === 'yes'
					? operations.split(', ').map((operation) => `${node} → ${resource} → ${operation}`)
					: [];
			});
	}

	it('mark the operations that can wait for completion, and only those', () => {
		const marked = pages.flatMap(([, , page]) => markedOnPage(page)).sort();
		expect(canWait.length).toBeGreaterThan(3);
		expect(marked).toEqual(canWait);
	});
});
