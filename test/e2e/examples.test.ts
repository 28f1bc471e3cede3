import type { Simulator } from '../../simulator/server';
import type { N8nClient, WorkflowDefinition } from './harness/client';
import { isWebhookTriggered, loadExamples, prepareExample } from './harness/examples';
import { createSimulatorCredentials, startSimulator } from './harness/fixtures';
import { connect, type SuiteState } from './harness/state';
import { nodeOutput, postToWebhook, productionUrl, webhookNode } from './harness/workflows';

let client: N8nClient;
let state: SuiteState;
let simulator: Simulator;
let credentials: Record<string, { id: string; name: string }>;

const examples = loadExamples();
const byFile = (file: string) => {
	const example = examples.find((e) => e.file === file);
	if (!example) throw new Error(`examples/${file} is missing`);
	return prepareExample(example.workflow, { credentials, n8nUrl: state.webhookUrl });
};

beforeAll(async () => {
	({ client, state } = connect());
	simulator = await startSimulator();
	credentials = await createSimulatorCredentials(client, simulator, 'examples e2e');
});

afterAll(async () => {
	await simulator?.stop();
});

/** Runs a manually triggered example through a webhook put in place of its Manual Trigger. */
async function runManualExample(
	workflow: WorkflowDefinition,
	path: string,
	respond: 'lastNode' | 'onReceived' = 'lastNode',
) {
	const nodes = workflow.nodes.map((node) =>
		node.type === 'n8n-nodes-base.manualTrigger'
			? { ...webhookNode(path, { respond }), name: node.name, position: node.position }
			: node,
	);
	expect(nodes.some((node) => node.type === 'n8n-nodes-base.webhook')).toBe(true);
	const { id } = await client.createWorkflow({ ...workflow, nodes });
	await client.activate(id);
	try {
		const res = await client.callWebhook(path, {});
		expect(res.status).toBe(200);
		const [execution] = await client.waitForExecutions(id, 1, 60_000);
		return execution;
	} finally {
		await client.deactivate(id);
	}
}

describe('examples/', () => {
	it('has examples, each using only node types this n8n has loaded', async () => {
		expect(examples.length).toBeGreaterThanOrEqual(3);
		const loaded = new Set((await client.nodeTypes()).map((type) => type.name));
		for (const { file, workflow } of examples) {
			const missing = workflow.nodes.map((n) => n.type).filter((type) => !loaded.has(type));
			expect({ file, missing }).toEqual({ file, missing: [] });
		}
	});

	it('Profile Add with a callback: the receiver example gets one item per collected review', async () => {
		const receiver = byFile('review-callback-receiver.json');
		expect(isWebhookTriggered(receiver)).toBe(true);
		const { id: receiverId } = await client.createWorkflow(receiver);
		await client.activate(receiverId);
		try {
			const queue = byFile('queue-review-profile.json');
			const submitted = await runManualExample(queue, 'example-queue-review-profile');
			expect(submitted.status).toBe('success');
			const [ack] = nodeOutput(submitted, 'Queue Review Profile');
			expect(ack.success).toBe(true);

			const [delivery] = await simulator.waitForDeliveries(1, 20_000);
			expect(delivery.state).toBe('delivered');
			const payload = delivery.payload as { job_id: number; reviews: unknown[] };
			expect(payload.job_id).toBe(ack.job_id);

			const [received] = await client.waitForExecutions(receiverId, 1, 20_000);
			const reviews = nodeOutput(received, 'One Item per Review');
			expect(reviews.length).toBe(payload.reviews.length);
			expect(reviews.length).toBeGreaterThan(0);
			expect(reviews).toEqual(payload.reviews);
		} finally {
			await client.deactivate(receiverId);
		}
	});

	it('Many profiles in a loop: each waits for its reviews, and each result keeps its own customer', async () => {
		const example = byFile('many-profiles-loop-wait.json');
		simulator.reset();
		const execution = await runManualExample(example, 'example-many-profiles', 'onReceived');
		expect(execution.status).toBe('success');
		const profiles = nodeOutput(execution, 'One Item per Profile');
		expect(profiles).toHaveLength(3);
		const results = (execution.data?.resultData.runData['Reviews with Customer'] ?? []).flatMap(
			(run) => (run.data?.main[0] ?? []).map((item) => item.json),
		);
		expect(results).toHaveLength(3);
		const deliveries = simulator.deliveries();
		expect(deliveries.map((delivery) => delivery.state)).toEqual(Array(3).fill('delivered'));
		for (const result of results) {
			const delivered = deliveries
				.map((delivery) => delivery.payload as { source_url: string; reviews: unknown[] })
				.find((payload) => payload.source_url === result.profile_url);
			const profile = profiles.find((p) => p.url === result.profile_url);
			expect(result).toMatchObject({
				customer: profile?.customer,
				wait_status: 'completed',
				review_count: delivered?.reviews.length,
			});
			expect(result.review_count).toBeGreaterThan(0);
		}
		expect(nodeOutput(execution, 'Every Profile Collected')).toHaveLength(3);
	});

	it('Respond jobs and their listing audits: one audit per respond job', async () => {
		const execution = await runManualExample(
			byFile('respond-jobs-and-listing-audit.json'),
			'example-respond-jobs',
		);
		expect(execution.status).toBe('success');
		const jobs = nodeOutput(execution, 'Get Respond Jobs');
		expect(jobs).toEqual(simulator.state.respondJobs.slice(0, 3));
		const audits = nodeOutput(execution, 'Get Listing Audit');
		expect(audits).toHaveLength(3);
		for (const audit of audits) {
			expect(Array.isArray(audit.local_nap_sources)).toBe(true);
			expect((audit.local_nap_sources as unknown[]).length).toBeGreaterThan(0);
		}
	});

	it('Each delivery handled once: a repeat that gets past the trigger stops at Remove Duplicates', async () => {
		const example = byFile('callback-trigger-once-per-delivery.json');
		expect(isWebhookTriggered(example)).toBe(true);
		// Screening off stands for a second webhook process or a restart, where the trigger's own
		// memory does not see the first delivery (test/e2e-queue/repeats.test.ts shows the real thing).
		const nodes = example.nodes.map((node) =>
			node.name === 'Scraping Callback Trigger'
				? { ...node, parameters: { ...node.parameters, options: { dedupe: false } } }
				: node,
		);
		const trigger = nodes.find((node) => node.name === 'Scraping Callback Trigger')!;
		const { id } = await client.createWorkflow({ ...example, nodes });
		await client.activate(id);
		try {
			const url = productionUrl(state.webhookUrl, trigger, 'callback');
			const failed = { success: false, status: 500, job_id: 515151, message: 'Crawl failed' };
			const job = {
				success: true,
				status: 200,
				job_id: 525252,
				crawl_status: 'complete',
				reviews: [{ id: 'r1', rating_value: 4 }],
			};
			for (const body of [job, job, failed]) {
				expect((await postToWebhook(url, body)).status).toBe(200);
			}
			const executions = await client.waitForExecutions(id, 3, 20_000);
			const handled = (name: string) =>
				executions.flatMap((execution) =>
					execution.data?.resultData.runData[name] ? nodeOutput(execution, name) : [],
				);
			expect(handled('Handle Results').map((item) => item.id)).toEqual(['525252']);
			expect(handled('Handle Failure').map((item) => item.id)).toEqual(['515151']);
		} finally {
			await client.deactivate(id);
		}
	});
});
