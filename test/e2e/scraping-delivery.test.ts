import { randomBytes, randomUUID } from 'node:crypto';

import { asDelivered, deliveryMarks } from './harness/delivered';
import {
	activateChain,
	expectExecutionCountStays,
	nodeOutput,
	nodeRun,
	packageNode,
	postToWebhook,
	webhookBase,
	webhookNode,
} from './harness/workflows';
import { useE2e } from './harness/suite';

const { client, state, simulator, submit, activated } = useE2e({
	credentials: 'scraping delivery e2e',
});

const READER = 'Scraping Delivery';

describe("n8n's Webhook node → Scraping Delivery, published", () => {
	it('reads a real job callback, fails a forged delivery, and gives nothing for a repeat', async () => {
		const secret = randomBytes(16).toString('hex');
		const path = `e2e-scraping-delivery-${randomUUID()}`;
		// n8n's fast path: version 2, POST, Respond Immediately, no expression in its parameters.
		const webhook = webhookNode(path, { name: 'Deliveries', respond: 'onReceived' });
		const reader = packageNode('scrapingDelivery', READER, {
			resource: 'delivery',
			operation: 'read',
			requireSecret: true,
			secret,
			options: {},
		});
		const id = await activateChain(client, 'e2e scraping delivery', [webhook, reader]);
		activated.add(id);
		const url = `${webhookBase(state)}/webhook/${path}`;

		const job = await submit.reviewJob(`${url}?secret=${secret}`);
		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		expect(delivery).toEqual(expect.objectContaining({ state: 'delivered', finalStatus: 200 }));
		const [read] = await client.waitForExecutions(id, 1, 20_000);
		expect(read.status).toBe('success');
		const payload = asDelivered(delivery.payload);
		expect(nodeOutput(read, READER)).toEqual([
			{
				kind: 'reviewJob',
				id: String(job.job_id),
				outcome: 'completed',
				payload,
				...deliveryMarks('reviewJob', job.job_id, payload),
			},
		]);
		expect(JSON.stringify(nodeOutput(read, READER))).not.toContain(secret);

		// The Webhook node answers before anything is checked: the forged delivery is answered 200,
		// and its execution fails at Scraping Delivery.
		const forged = await postToWebhook(`${url}?secret=not-${secret}`, {
			...(delivery.payload as Record<string, unknown>),
			job_id: 987654321,
		});
		expect(forged.status).toBe(200);
		const failed = await waitForNewExecution(id, [read.id]);
		expect(failed.status).toBe('error');
		expect(nodeRun(failed, READER).error?.message).toBe(
			'Invalid or missing callback secret (item 0)',
		);

		// The service sends the same delivery again: the execution starts and ends without items.
		expect(
			(await postToWebhook(`${url}?secret=${secret}`, delivery.payload as Record<string, unknown>))
				.status,
		).toBe(200);
		const repeat = await waitForNewExecution(id, [read.id, failed.id]);
		expect(repeat.status).toBe('success');
		expect(nodeOutput(repeat, READER)).toEqual([]);
		await expectExecutionCountStays(client, id, 3, 1_000);
	});
});

/** The one execution of the workflow that is not among `known`, once it has ended. */
async function waitForNewExecution(workflowId: string, known: string[]) {
	const executions = await client.waitForExecutions(workflowId, known.length + 1, 20_000);
	const fresh = executions.filter((execution) => !known.includes(execution.id));
	expect(fresh).toHaveLength(1);
	return fresh[0];
}
