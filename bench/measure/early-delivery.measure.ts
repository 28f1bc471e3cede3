/**
 * How often does a callback sent the instant the service answers the submit meet n8n's 409
 * (the execution not yet saved as waiting)? Run once per mode, not part of `npm test`:
 *
 *   npm run build && npx jest --selectProjects measure --runInBand --testTimeout=900000
 *   npm run build && npx jest --selectProjects measure-queue --runInBand --testTimeout=900000
 *
 * Each try: a Webhook call starts Review Scraper → Profile → Add with Wait for Completion; the
 * simulator completes the job at once and posts the callback to the resume URL, retrying a refusal
 * within milliseconds (quick policy) so the window's length is seen too. Tries run one at a time.
 * Results go to test-artifacts/early-delivery-<mode>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { DeliveryRecord, Simulator } from '../../simulator/server';
import type { N8nClient } from '../../test/e2e/harness/client';
import { createSimulatorCredentials, startSimulator } from '../../test/e2e/harness/fixtures';
import { connect, currentMode, type SuiteState } from '../../test/e2e/harness/state';
import { chain, packageNode, webhookNode } from '../../test/e2e/harness/workflows';

const TRIES = Number(process.env.EARLY_DELIVERY_TRIES ?? 200);
const PER_TRY_TIMEOUT_MS = 20_000;
const TOTAL_BUDGET_MS = 800_000;

let client: N8nClient;
let state: SuiteState;
let simulator: Simulator;

beforeAll(async () => {
	({ client, state } = connect());
	simulator = await startSimulator();
	simulator.configure({
		completionDelayMs: 0,
		callbackRetry: { policy: 'quick', maxAttempts: 40, baseDelayMs: 10, maxDelayMs: 50 },
	});
});

afterAll(async () => {
	await simulator?.stop();
});

const percentile = (sorted: number[], p: number) =>
	sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;

it(`measures the early-delivery 409 rate over ${TRIES} tries`, async () => {
	const { reviewScraperApi } = await createSimulatorCredentials(client, simulator, 'measure');
	const hookPath = `measure-early-${Date.now()}`;
	const workflow = chain([
		webhookNode(hookPath, { respond: 'onReceived' }),
		packageNode(
			'reviewScraper',
			'Review Scraper',
			{
				resource: 'profile',
				operation: 'add',
				url: 'https://www.example.com/biz/measure',
				waitForCompletion: true,
				waitTimeLimit: 5,
				additionalFields: { blocks: 1 },
			},
			{ reviewScraperApi },
		),
	]);
	const { id } = await client.createWorkflow({ name: 'measure early delivery', ...workflow });
	await client.activate(id);
	const deliveries: DeliveryRecord[] = [];
	const started = Date.now();
	try {
		for (let i = 0; i < TRIES && Date.now() - started < TOTAL_BUDGET_MS; i++) {
			const before = simulator.deliveries().length;
			const res = await client.callWebhook(hookPath, { try: i });
			await res.arrayBuffer();
			expect(res.status).toBe(200);
			const all = await simulator.waitForDeliveries(before + 1, PER_TRY_TIMEOUT_MS);
			deliveries.push(all[before]);
		}
	} finally {
		await client.deactivate(id);
	}

	const first409 = deliveries.filter((d) => d.attemptLog[0]?.status === 409).length;
	const delivered = deliveries.filter((d) => d.state === 'delivered').length;
	const windowMs = deliveries
		.filter((d) => d.state === 'delivered')
		.map((d) => Date.parse(d.attemptLog.at(-1)!.at) - Date.parse(d.attemptLog[0].at))
		.sort((a, b) => a - b);
	const refusals = deliveries.map((d) => d.attemptLog.filter((a) => a.status === 409).length);
	const result = {
		mode: currentMode(),
		n8nUrl: state.n8nUrl,
		tries: deliveries.length,
		firstAttempt409: first409,
		firstAttempt409Rate: deliveries.length ? first409 / deliveries.length : NaN,
		deliveredInTheEnd: delivered,
		refusalsPerDelivery: { max: Math.max(...refusals), total: refusals.reduce((a, b) => a + b, 0) },
		firstAttemptToAcceptedMs: {
			median: percentile(windowMs, 50),
			p95: percentile(windowMs, 95),
			max: windowMs.at(-1) ?? NaN,
		},
		at: new Date().toISOString(),
		durationS: Math.round((Date.now() - started) / 1000),
	};
	const dir = path.join(__dirname, '..', '..', 'test-artifacts');
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		path.join(dir, `early-delivery-${result.mode}.json`),
		JSON.stringify(result, null, 2),
	);
	process.stderr.write(`[measure] ${JSON.stringify(result)}\n`);
	expect(deliveries.length).toBe(TRIES);
	expect(delivered).toBe(TRIES);
});
