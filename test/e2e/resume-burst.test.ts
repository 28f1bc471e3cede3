/**
 * Many waiting executions whose callbacks arrive at once. n8n 2.41 resumes a waiting execution
 * only after it has loaded the execution from its database and taken an expression isolate (one
 * built afresh for every request that finds the pool's one taken), and only then reads the body
 * (`waiting-webhooks.js`): a callback whose sender gave up meanwhile is gone, its execution keeps
 * waiting. That is n8n's path for its own Wait node and for Wait for Completion alike. Through the
 * shipped HAProxy front (deploy/haproxy.cfg), which reads the body and keeps the request
 * open to n8n, every one resumes. The callbacks are the simulator's, kept back and sent at once
 * with a short patience (RESUME_E2E_COUNT, RESUME_E2E_PATIENCE_MS) so that the cliff shows in CI;
 * `npm run bench -- --only=resume-burst` runs 1,000 with the service's patience.
 */
import type { Simulator } from '../../simulator/server';
import {
	countResumed,
	RESUMER_LABEL,
	sendEachAtOnce,
	throughOrigin,
	waitingNodes,
	waitingWithHeldCallbacks,
	type BurstOutcome,
	type HeldCallback,
	type Resumer,
} from './harness/burst';
import type { N8nClient } from './harness/client';
import { builtCredentialTypes, simulatorCredentialData, startSimulator } from './harness/fixtures';
import { packageName } from './harness/package';
import { startDeliveryProxy, type DeliveryProxy } from './harness/proxy';
import { connect, type SuiteState } from './harness/state';
import { activateChain, nodeOutput, webhookBase, webhookNode } from './harness/workflows';

const COUNT = Number(process.env.RESUME_E2E_COUNT) || 100;
const PATIENCE_MS = Number(process.env.RESUME_E2E_PATIENCE_MS) || 2_000;

let client: N8nClient;
let state: SuiteState;
let simulator: Simulator;
let proxy: DeliveryProxy;
let credential: { id: string; name: string };
const activated: string[] = [];

beforeAll(async () => {
	({ client, state } = connect());
	simulator = await startSimulator();
	const type = builtCredentialTypes().find((c) => c.name === 'reviewScraperApi');
	if (!type) throw new Error('the package has no reviewScraperApi credential');
	// Unpaced: the executions are started 16 at a time and should all be waiting within seconds.
	credential = await client.createCredential(
		'Review Scraper API (resume burst)',
		type.name,
		simulatorCredentialData(type, simulator, { requestsPerSecond: 0 }),
	);
	proxy = await startDeliveryProxy([webhookBase(state)], `e2e-resume-${state.mode}`);
}, 120_000);

afterAll(async () => {
	for (const id of activated.splice(0)) await client.deactivate(id);
	await proxy?.stop();
	await simulator?.stop();
});

interface ResumeBurst {
	workflowId: string;
	outcome: BurstOutcome;
	resumed: string[];
	/** Callbacks whose execution was still waiting when the burst settled. */
	lost: HeldCallback[];
}

/** `COUNT` executions left waiting by `resumer`, their callbacks sent at once to `origin`. */
async function resumeBurst(resumer: Resumer, origin: string, tag: string): Promise<ResumeBurst> {
	const path = `resume-burst-${tag}-${Date.now()}`;
	const workflowId = await activateChain(client, `resume burst e2e: ${RESUMER_LABEL[resumer]}`, [
		webhookNode(path, { respond: 'onReceived' }),
		...waitingNodes(resumer, packageName, simulator.urls.baseUrl, credential),
	]);
	activated.push(workflowId);
	const { waiting, callbacks } = await waitingWithHeldCallbacks(
		client,
		simulator,
		workflowId,
		`${webhookBase(state)}/webhook/${path}`,
		COUNT,
		tag,
	);
	const since = Date.now();
	const outcome = await sendEachAtOnce(
		callbacks.map(({ url, body }) => ({ url: throughOrigin(url, origin), body })),
		PATIENCE_MS,
	);
	const { resumed, lastMs } = await countResumed(client, workflowId, waiting, since, 10_000);
	const ended = new Set(resumed);
	process.stdout.write(
		`[resume burst ${state.mode}] ${RESUMER_LABEL[resumer]}, ${origin === proxy.url ? 'through HAProxy' : 'straight to n8n'}: ` +
			`${outcome.answeredInTime}/${COUNT} answered within ${PATIENCE_MS} ms, ${resumed.length} resumed, ` +
			`last at ${(lastMs / 1000).toFixed(1)} s\n`,
	);
	return {
		workflowId,
		outcome,
		resumed,
		lost: callbacks.filter((callback) => !ended.has(callback.executionId)),
	};
}

/** Each resumed execution carries the job of the profile it submitted, not another's. */
async function profileMismatches(workflowId: string, resumed: string[], node: string) {
	const mine = new Set(resumed);
	const executions = (
		await client.listExecutions({ workflowId, includeData: true, limit: 250 })
	).filter((execution) => mine.has(execution.id));
	expect(executions).toHaveLength(resumed.length);
	return executions.filter((execution) => {
		const submitted = (nodeOutput(execution, 'Webhook')[0]?.body as { url?: string })?.url;
		const delivered = nodeOutput(execution, node)[0];
		const source =
			delivered?.source_url ?? (delivered?.body as { source_url?: string })?.source_url;
		return submitted === undefined || source !== submitted;
	});
}

test(`${COUNT} waiting executions, their callbacks at once: through the shipped HAProxy front each resumes with its own job, no fewer than n8n's Wait node straight to n8n`, async () => {
	const waitNode = await resumeBurst('waitNode', webhookBase(state), 'wait-node');
	const ours = await resumeBurst('waitForCompletion', proxy.url, 'wait-for-completion');

	expect(ours.resumed).toHaveLength(COUNT);
	expect(ours.resumed.length).toBeGreaterThanOrEqual(waitNode.resumed.length);
	// Nothing refused: a sender that waited long enough got 200, the others gave up.
	expect(ours.outcome.refused + ours.outcome.failed).toBe(0);
	expect(await profileMismatches(ours.workflowId, ours.resumed, 'Review Scraper')).toEqual([]);

	// The service sends a lost callback again hours later; through the front, each resumes then.
	const retried = await sendEachAtOnce(
		waitNode.lost.map(({ url, body }) => ({ url: throughOrigin(url, proxy.url), body })),
		60_000,
	);
	expect(retried.answeredInTime).toBe(waitNode.lost.length);
	const after = await countResumed(
		client,
		waitNode.workflowId,
		waitNode.lost.map((callback) => callback.executionId),
		Date.now(),
		10_000,
	);
	expect(after.resumed).toHaveLength(waitNode.lost.length);
}, 900_000);
