import { readFileSync, writeFileSync } from 'node:fs';

import { startReceiver, useSimulator } from './fixtures';
import {
	expectedWorkflows,
	operationsOfTables,
	runOperation,
	withObserved,
	type WorkflowFile,
} from './workflows';

/**
 * Every operation of the nodes' operation tables, run through n8n's engine from
 * `<Node>/<resource>/<operation>.workflow.json`: its nodes, input, what the simulator holds first,
 * and what is expected: the requests the service received and the last node's output.
 * `UPDATE_WORKFLOWS=1` writes what a run gave into the file (then `npx prettier --write` it), to be
 * read before it is committed.
 */
const context = useSimulator();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => (receiver = await startReceiver()));
afterAll(async () => await receiver.close());

it('has a workflow for every operation of the tables, and none for an unknown one', () => {
	expect(expectedWorkflows().map(({ operation }) => operation)).toEqual(operationsOfTables());
	const variants = expectedWorkflows({ variants: true }).map(({ operation }) => operation);
	expect(variants.filter((operation) => !operationsOfTables().includes(operation))).toEqual([]);
});

describe.each(expectedWorkflows({ variants: true }))('$file', ({ path, workflow }) => {
	it('sends the expected requests and outputs the expected items', async () => {
		const { observed } = await runOperation(context.sim, receiver.url, workflow);
		if (process.env.UPDATE_WORKFLOWS) {
			const file = JSON.parse(readFileSync(path, 'utf8')) as WorkflowFile;
			writeFileSync(path, `${JSON.stringify(withObserved(file, observed))}\n`);
		}
		const { requests, output, errorOutput } = workflow;
		expect(observed).toEqual({ requests, output, errorOutput });
	});
});
