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
 * The list of operations that can wait, which docs/results-delivery.md keeps by hand in a sentence
 * (the README links to it), is checked against the nodes' descriptions: a new one fails here until
 * it is named. Other operations are listed on their node's page only.
 */
describe('hand-kept lists of operations', () => {
	type Option = { name: string; value: string };
	const optionsOf = (property?: INodeProperties) => (property?.options ?? []) as Option[];
	const nodes = packageNodes.map(({ node }) => node.description);
	/** Each node's resources, by name, with the names of their operations. */
	const operations = nodes.map(({ displayName, properties }) => {
		const resources = optionsOf(properties.find(({ name }) => name === 'resource'));
		const operationsOf = (resource: string) =>
			optionsOf(
				properties.find(
					({ name, displayOptions }) =>
						name === 'operation' && displayOptions?.show?.resource?.includes(resource),
				),
			);
		return {
			displayName,
			resources: resources.map(({ name, value }) => ({
				name,
				value,
				operations: operationsOf(value),
			})),
		};
	});
	const readme = read(join(repoRoot, 'README.md'));

	/**
	 * "Resource → Op, Op (note); Resource → Op." as resource and operation names: an item that
	 * starts with a capital is an operation ("Search with keyword …" names Search), and a semicolon
	 * or a full stop ends a resource's list.
	 */
	function listed(text: string): Record<string, string[]> {
		const lists: Record<string, string[]> = {};
		let current: string[] | undefined;
		const flat = text.replace(/\([^)]*\)/g, '').replace(/\s+/g, ' ');
		for (const [, piece, end] of flat.matchAll(/([^;,.]+)([;,.]|$)/g)) {
			const item = piece.trim();
			const arrow = /^([A-Z][\w-]*(?: [A-Z][\w-]*)*) → (.+)$/.exec(item);
			if (arrow) current = lists[arrow[1]] = [arrow[2]];
			else if (current && /^[A-Z]/.test(item)) current.push(item);
			if (end !== ',') current = undefined;
		}
		return lists;
	}

	it("the README's Nodes list links each node's page, the operations' one place", () => {
		const start = readme.indexOf('## Nodes\n');
		const section = readme.slice(start, readme.indexOf('\n## ', start));
		const linked = [...section.matchAll(/^- \[([^\]]+)\]\(docs\/nodes\/[\w-]+\.md\)/gm)];
		expect(linked.map(([, name]) => name).sort()).toEqual(
			nodes.map(({ displayName }) => displayName).sort(),
		);
	});

	const waiting = operations
		.flatMap(({ resources }) =>
			resources.flatMap(({ name, value, operations: ops }) =>
				ops
					.filter(({ value: operation }) =>
						nodes.some(({ properties }) =>
							properties.some(
								(property) =>
									property.name === 'waitForCompletion' &&
									property.displayOptions?.show?.resource?.includes(value) &&
									property.displayOptions?.show?.operation?.includes(operation),
							),
						),
					)
					.map((operation) => `${name} → ${operation.name}`),
			),
		)
		.sort();

	it('docs/results-delivery.md names the operations that can wait for completion', () => {
		const page = read(join(repoRoot, 'docs/results-delivery.md'));
		const text = /\*\*Wait for Completion\*\* \(([^;]+);/.exec(page)?.[1].replace(/\s+/g, ' ');
		const lists = listed(text ?? '');
		const given = Object.entries(lists)
			.flatMap(([resource, items]) => items.map((item) => `${resource} → ${item}`))
			.sort();
		expect(waiting.length).toBeGreaterThan(3);
		expect(given).toEqual(waiting);
	});
});
