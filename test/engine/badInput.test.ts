import type { IDataObject } from 'n8n-workflow';

import { runNode, useSimulator } from './fixtures';
import { expectedWorkflows } from './workflows';

/**
 * Bad input of every operation, refused before any request, naming the field and the item: the
 * `badInput` rows of each `<Node>/<resource>/<operation>.workflow.json`, run on its last node.
 */
const context = useSimulator();
const workflows = expectedWorkflows();

it('has bad input for every operation', () => {
	expect(
		workflows.filter(({ workflow }) => !workflow.badInput?.length).map(({ file }) => file),
	).toEqual([]);
});

const cases = workflows.flatMap(({ file, workflow }) => {
	const { type, parameters } = workflow.nodes[workflow.nodes.length - 1];
	const { resource, operation } = parameters as { resource: string; operation: string };
	return (workflow.badInput ?? []).map((row) => ({
		name: `${file.replace('.workflow.json', '')}: ${row.case}`,
		node: {
			type,
			typeVersion: row.typeVersion,
			parameters: { resource, operation, ...row.parameters },
		},
		...row,
	}));
});

it.each(cases)('$name', async ({ node, input, error, item = 0 }) => {
	const run = await runNode(context.sim, node, input ?? [{}]);
	const message = String(run.error?.message);
	expect([run.status, message]).toEqual(['error', expect.stringMatching(new RegExp(error))]);
	expect(message).toContain(`(item ${item})`);
	expect((run.error as unknown as { context?: IDataObject }).context?.itemIndex).toBe(item);
	expect(context.sim.requests()).toHaveLength(0);
});

// The field starts empty (not 0), so n8n itself refuses to run the node until it is filled.
it.each([
	['respondJob', 'Respond Job', undefined],
	['respondJob', 'Respond Job ID', 1.2],
	['listingAudit', 'Profile Job ID', undefined],
])(
	'%s → Get with %s left at its default (version %s): n8n names the field before anything runs',
	async (resource, label, typeVersion) => {
		const type = 'n8n-nodes-review-scraping.reviewScraper';
		const node = { type, typeVersion, parameters: { resource, operation: 'get' } };
		await expect(runNode(context.sim, node, [{}])).rejects.toThrow(
			`Parameter "${label}" is required`,
		);
		expect(context.sim.requests()).toHaveLength(0);
	},
);
