import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { nodeTypes } from './fixtures';
import { runWorkflow } from './harness';
import { expectedWorkflows } from './workflows';

/**
 * What Scraping Delivery's workflow file cannot show: a repeat across runs of one published
 * workflow, and the Settings tab's On Error. The delivery is the file's, as n8n's Webhook node
 * outputs it (the pair runs in a real n8n in test/e2e/burst.test.ts).
 */
const { workflow } = expectedWorkflows().find(({ file }) => file.startsWith('ScrapingDelivery/'))!;
const [delivery] = workflow.input!;
const forged = { ...delivery, query: { secret: 'forged' } };
const FORGED = 'Invalid or missing callback secret (item 0)';

/** One node of a workflow that lives across runs, as a published workflow does. */
function deliveryNode(onError?: 'continueRegularOutput' | 'continueErrorOutput') {
	const node = { ...workflow.nodes[0], id: randomUUID(), ...(onError ? { onError } : {}) };
	return async (items: IDataObject[]) => {
		const run = await runWorkflow({
			nodes: [node],
			nodeTypes,
			inputItems: items.map((json) => ({ json })),
			mode: 'webhook',
		});
		return run
			.output(node.name)
			.map((output) =>
				output.map(({ json, pairedItem }) => [
					json.error ?? json.kind,
					(pairedItem as { item: number }).item,
				]),
			);
	};
}

it('gives a delivery once, then nothing for its repeat', async () => {
	const run = deliveryNode();
	expect(await run([delivery])).toEqual([[['reviewJob', 0]]]);
	expect(await run([delivery])).toEqual([[]]);
});

it('with On Error → Continue, a forged delivery is an error item, on the error output alone when chosen', async () => {
	expect(await deliveryNode('continueRegularOutput')([forged, delivery])).toEqual([
		[
			[FORGED, 0],
			['reviewJob', 1],
		],
	]);
	expect(await deliveryNode('continueErrorOutput')([forged, delivery])).toEqual([
		[['reviewJob', 1]],
		[[FORGED, 0]],
	]);
});
