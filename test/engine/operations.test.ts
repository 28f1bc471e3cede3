import { writeFileSync } from 'node:fs';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import {
	credentialsFor,
	credentialTypes,
	nodeTypes,
	startReceiver,
	useSimulator,
} from './fixtures';
import { runWorkflow, type NodeSpec } from './harness';
import {
	expectedWorkflows,
	normalise,
	type OperationWorkflow,
	operationsOfTables,
} from './workflows';

/**
 * Every operation of the nodes' operation tables, run through n8n's engine from
 * `<Node>/<resource>/<operation>.workflow.json`: its nodes, input, what the simulator holds first,
 * and what is expected: the requests the service received and the last node's output.
 * `UPDATE_WORKFLOWS=1` writes what a run gave into the file, to be read before it is committed.
 */
const context = useSimulator();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => (receiver = await startReceiver()));
afterAll(async () => await receiver.close());

it('has a workflow for every operation of the tables, and none for an unknown one', () => {
	expect(expectedWorkflows().map(({ file }) => file)).toEqual(operationsOfTables());
});

describe.each(expectedWorkflows())('$file', ({ path, workflow }) => {
	it('sends the expected requests and outputs the expected items', async () => {
		let answered = '';
		const fill = (value: unknown) =>
			JSON.parse(
				JSON.stringify(value)
					.replaceAll('{{receiver}}', receiver.url)
					.replaceAll('{{sim}}', new URL(context.sim.urls.baseUrl).origin)
					.replaceAll('{{answered}}', answered),
			);
		if (workflow.configure) context.sim.configure(workflow.configure);
		for (const step of workflow.before ?? []) {
			if ('seedVideoRequest' in step) {
				answered = context.sim.seedVideoRequest(fill(step.seedVideoRequest)).request_id;
			} else {
				const [method, url] = fill(step.call).split(' ');
				const response = await fetch(url, {
					method,
					headers: { 'content-type': 'application/json', 'x-api-key': context.sim.config.apiKey },
					body: JSON.stringify(fill(step.body)),
				});
				expect(response.ok).toBe(true);
				const answer = (await response.json()) as IDataObject;
				answered = String(answer.request_id ?? (answer.results as IDataObject[])[0].schedule_id);
				await context.sim.waitForDeliveries(step.deliveries ?? 1, 5000);
			}
		}
		context.sim.clearRequests();
		const nodes = fill(workflow.nodes) as NodeSpec[];
		const run = await runWorkflow({
			nodes,
			nodeTypes,
			credentialTypes,
			credentials: credentialsFor(context.sim),
			inputItems: fill(workflow.input ?? [{}]).map((json: IDataObject): INodeExecutionData => ({
				json,
			})),
		});
		const last = nodes[nodes.length - 1].name;
		const observed: Pick<OperationWorkflow, 'requests' | 'output'> = normalise(
			{
				requests: context.sim.requests().map(({ method, api, path, query, body }) => ({
					method,
					api,
					path,
					...(Object.keys(query).length ? { query } : {}),
					...(body === undefined || body === null ? {} : { body }),
				})),
				output: run.status === 'success' ? run.json(last) : [{ error: run.error?.message }],
			},
			{ [new URL(context.sim.urls.baseUrl).origin]: '{{sim}}', [receiver.url]: '{{receiver}}' },
		);
		if (process.env.UPDATE_WORKFLOWS) {
			writeFileSync(path, `${JSON.stringify({ ...workflow, ...observed }, null, '\t')}\n`);
		}
		expect(observed).toEqual({ requests: workflow.requests, output: workflow.output });
	});
});
