import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import {
	actionNodes,
	arrange,
	cases,
	expectOutcome,
	missingRows,
	newestVersion,
	nodeSettings,
	rows,
	type MatrixCase,
	type Row,
} from '../settings/matrix';
import { credentialsFor, credentialTypes, nodeTypes, useSimulator } from './fixtures';
import { runWorkflow } from './harness';

/** n8n's Settings tab on every operation (test/settings/matrix.ts), in n8n-core's own engine. */
const context = useSimulator();
const NODE = 'Node Under Test';

it('has a row for every operation of every action node', () => {
	expect(missingRows()).toEqual([]);
	expect(cases.length).toBeGreaterThanOrEqual(16 * 6);
});

/** Runs one case (on `typeVersion`, the newest by default) and checks its outcome. */
async function routesAsExpected(
	matrixCase: MatrixCase,
	row: Row,
	tag: string,
	typeVersion?: number,
) {
	const { items, goodSent, refused } = await arrange(context.sim, row, tag);
	const run = await runWorkflow({
		nodes: [
			{
				name: NODE,
				type: `n8n-nodes-review-scraping.${matrixCase.node}`,
				typeVersion,
				...nodeSettings(matrixCase, row),
			},
		],
		nodeTypes,
		credentialTypes,
		credentials: credentialsFor(context.sim),
		inputItems: items.map((json): INodeExecutionData => ({ json })),
	});
	const error = run.nodeError(NODE) as { message?: string; context?: { itemIndex?: number } };
	expectOutcome(matrixCase, row, items, {
		status: run.status,
		error: error && { message: error.message, itemIndex: error.context?.itemIndex },
		outputs: run.status === 'success' ? run.output(NODE) : [],
		goodSent: goodSent(),
		detailsKept: true,
		refused,
	});
}

describe.each(cases)('$node $operation, On Error $onError, Retry On Fail $retry', (matrixCase) => {
	const row = rows[matrixCase.node]?.[matrixCase.operation];
	if (!row) return;

	it('routes each item as n8n users expect and submits nothing twice', async () => {
		await routesAsExpected(matrixCase, row, 'engine');
	});
});

/** The versions a node still serves besides its newest. */
const olderVersions = (node: string): number[] => {
	const type = actionNodes[node];
	const { version } = type.description;
	return (Array.isArray(version) ? version : [version]).filter((v) => v !== newestVersion(type));
};

/**
 * The same rows on every older version each node still serves (On Error: Stop, no retry, as a
 * workflow is saved by default): a workflow saved on 1, 1.1 or 1.2 routes, refuses and submits as
 * the newest does. Generated from the node's version list, so a new version adds its old one here.
 */
const olderVersionCases = cases
	.filter((c) => c.onError === 'stop' && !c.retry && rows[c.node]?.[c.operation])
	.flatMap((c) => olderVersions(c.node).map((typeVersion) => ({ ...c, typeVersion })));

it('runs the rows on every older version of every action node', () => {
	expect(new Set(olderVersionCases.map((c) => `${c.node} ${c.typeVersion}`))).toEqual(
		new Set(
			Object.keys(actionNodes).flatMap((node) => olderVersions(node).map((v) => `${node} ${v}`)),
		),
	);
});

describe.each(olderVersionCases)('$node $operation on version $typeVersion', (matrixCase) => {
	it('routes each item as on the newest version and submits nothing twice', async () => {
		const row = rows[matrixCase.node][matrixCase.operation];
		await routesAsExpected(matrixCase, row, 'version', matrixCase.typeVersion);
	});
});

const operationsWithRows = cases.filter(
	(c) => c.onError === 'continueErrorOutput' && !c.retry && rows[c.node]?.[c.operation],
);

describe.each(operationsWithRows)(
	'$node $operation, the rest of the Settings tab',
	(matrixCase) => {
		const row = rows[matrixCase.node][matrixCase.operation];
		const run = async (items: IDataObject[], settings: Partial<INode>) =>
			await runWorkflow({
				nodes: [
					{
						name: NODE,
						type: `n8n-nodes-review-scraping.${matrixCase.node}`,
						...nodeSettings(matrixCase, row),
						...settings,
					},
				],
				nodeTypes,
				credentialTypes,
				credentials: credentialsFor(context.sim),
				inputItems: items.map((json): INodeExecutionData => ({ json })),
			});

		it('Always Output Data: every item failed, so n8n puts one empty item on the success output', async () => {
			// Item 2 is refused before sending: item 0's request is the only one, refused even for a list.
			const { items } = await arrange(context.sim, row, 'always', true);
			const result = await run([items[0], items[2]], { alwaysOutputData: true });
			expect(result.status).toBe('success');
			const [success, errors] = result.output(NODE);
			expect(success.map((item) => item.json)).toEqual([{}]);
			expect(errors.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1]);
		});

		it('Execute Once: only the first input item is sent', async () => {
			const { items, goodSent } = await arrange(context.sim, row, 'once');
			// The refusal is for items[0], which Execute Once never sends; a list's fault has no marker.
			context.sim.clearFaults();
			const result = await run([items[1], items[0], items[2]], { executeOnce: true });
			expect(result.status).toBe('success');
			const all = result.output(NODE).flat();
			expect(all.length).toBeGreaterThan(0);
			expect(all.every((item) => item.json.error === undefined)).toBe(true);
			expect(all.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
			if (row.goodSubject) expect(goodSent()).toBe(1);
		});
	},
);
