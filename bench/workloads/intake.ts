import { randomUUID } from 'node:crypto';

import type { N8nClient, WorkflowNode } from '../../test/e2e/harness/client';
import {
	cell,
	median,
	ratioCell,
	type BenchContext,
	type BenchResult,
	type Row,
} from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import {
	deploy,
	expectOk,
	listAllExecutions,
	PACKAGE,
	post,
	postWhenRegistered,
	UNFINISHED,
	webhookTrigger,
	type Deployed,
} from '../lib/workflows';

const CONCURRENCY = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let nextJobId = 5_000_000;

/** A review job callback as the service delivers it; each a new job, so none is a repeat. */
function callbackPayload() {
	const jobId = nextJobId++;
	return {
		job_id: jobId,
		status: 'complete',
		success: true,
		external_identifier: `bench-${jobId}`,
		profile_url: `https://www.example.com/biz/intake-${jobId}`,
		credits_used: 2,
		review_count: 2,
		reviews: [1, 2].map((n) => ({
			id: `${jobId}-${n}`,
			rating: n + 3,
			text: 'Great pizza, friendly staff.',
			author: 'A. Reviewer',
			date: '2024-05-01',
		})),
	};
}

function callbackTrigger(dedupe: boolean): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Scraping Callback Trigger',
		type: `${PACKAGE}.scrapingCallbackTrigger`,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { kinds: [], requireSecret: false, options: dedupe ? {} : { dedupe: false } },
	};
}

interface Sample {
	/** From the first POST until every POST was answered. */
	ms: number;
	perSecond: number;
	non200: number;
	executions: number;
	/** From the first POST until every execution had finished. */
	drainedMs: number;
	/** Of the last callbacks sent again one by one afterwards, how many were recognised. */
	repeatsRecognised?: number;
}

const RESENT = 20;

async function waitForExecutions(client: N8nClient, workflowId: string, expected: number) {
	const deadline = Date.now() + 300_000;
	let last = -1;
	let stableSince = Date.now();
	for (;;) {
		const executions = await listAllExecutions(client, workflowId);
		const finished = executions.filter((e) => !UNFINISHED.includes(e.status)).length;
		if (finished === executions.length && executions.length >= expected) return executions.length;
		if (executions.length !== last) {
			last = executions.length;
			stableSince = Date.now();
		}
		// Missing executions never come: stop once the count has not moved for a while.
		if (Date.now() > deadline || Date.now() - stableSince > 30_000) return executions.length;
		await sleep(200);
	}
}

/** Posts `count` callbacks with `CONCURRENCY` in flight, then counts executions via the API. */
async function deliver(
	client: N8nClient,
	target: Deployed,
	payloads: Array<ReturnType<typeof callbackPayload>>,
	executionsBefore: number,
): Promise<Sample> {
	const count = payloads.length;
	let next = 0;
	let non200 = 0;
	const started = performance.now();
	const worker = async () => {
		while (next < payloads.length) {
			const posted = await post(target.url, payloads[next++], 30_000);
			if (posted.status !== 200) non200++;
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const ms = performance.now() - started;
	const executions =
		(await waitForExecutions(client, target.id, executionsBefore + count)) - executionsBefore;
	const drainedMs = performance.now() - started;
	return { ms, perSecond: (count * 1000) / ms, non200, executions, drainedMs };
}

type Kind = 'trigger' | 'webhook' | 'trigger-no-repeat-filter' | 'webhook-expression';

const KIND_NAMES: Record<Kind, string> = {
	trigger: 'Scraping Callback Trigger',
	webhook: 'Webhook',
	'trigger-no-repeat-filter': 'Scraping Callback Trigger, repeat filter off',
	'webhook-expression': 'Webhook with one expression parameter',
};

/**
 * The Scraping Callback Trigger against n8n's Webhook node, taking the same callbacks. The full
 * mode adds two variants that tell the causes of a gap apart: the trigger without its repeat
 * filter (no static-data write per callback), and a Webhook node with an expression among its
 * parameters, for which n8n sets up an expression isolate per call as it does for every trigger
 * other than its own Webhook node with static parameters.
 */
export async function callbackIntake({ env, quick }: BenchContext): Promise<BenchResult> {
	const count = quick ? 100 : 400;
	const rounds = quick ? 2 : 4;
	const kinds: Kind[] = quick
		? ['trigger', 'webhook']
		: ['trigger', 'webhook', 'trigger-no-repeat-filter', 'webhook-expression'];
	const { client } = env;

	const deployKind = async (kind: Kind, round: number): Promise<Deployed> => {
		const name = `bench intake ${round}: ${KIND_NAMES[kind]}`;
		if (kind === 'trigger' || kind === 'trigger-no-repeat-filter') {
			const trigger = callbackTrigger(kind === 'trigger');
			return await deploy(client, name, trigger, [], 'all', `${trigger.webhookId}/callback`);
		}
		const path = `bench-intake-${round}-${randomUUID()}`;
		const webhook = webhookTrigger(path, 'onReceived');
		if (kind === 'webhook-expression') webhook.parameters.options = { ignoreBots: '={{ false }}' };
		return await deploy(client, name, webhook, [], 'all', path);
	};

	// New workflows per round: each one's execution count is then that round's.
	const variant = (kind: Kind) => async (round: number) => {
		const deployed = await deployKind(kind, round);
		// The warm-up delivery is one execution more.
		expectOk(await postWhenRegistered(deployed.url, callbackPayload()), `${kind} warm-up`);
		await waitForExecutions(client, deployed.id, 1);
		const payloads = Array.from({ length: count }, callbackPayload);
		const sample = await deliver(client, deployed, payloads, 1);
		if (kind === 'trigger') {
			// The service retries deliveries: a repeat of a recent one must not start the workflow.
			sample.repeatsRecognised = 0;
			for (const payload of payloads.slice(-RESENT)) {
				const answer = await post(deployed.url, payload);
				if (answer.text.includes('"duplicate":true')) sample.repeatsRecognised++;
			}
		}
		await client.deactivate(deployed.id);
		return sample;
	};

	log(`callback intake: ${count} callbacks, concurrency ${CONCURRENCY}, ${rounds} rounds`);
	const samples = await alternate(
		rounds,
		kinds.map((kind) => ({ name: KIND_NAMES[kind], run: variant(kind) })),
		(s) =>
			`${Math.round(s.perSecond)}/s, ${s.executions} executions, ${s.non200} non-200, drained in ${Math.round(s.drainedMs)} ms` +
			(s.repeatsRecognised === undefined
				? ''
				: `, ${s.repeatsRecognised}/${RESENT} repeats recognised`),
	);
	const byKind = Object.fromEntries(kinds.map((kind, i) => [kind, samples[i]])) as Partial<
		Record<Kind, Sample[]>
	>;
	const triggerSamples = byKind.trigger!;
	const webhookSamples = byKind.webhook!;

	const rate = (kind: Kind, label: string) =>
		cell(
			label,
			byKind[kind]!.map((s) => s.perSecond),
			'/s',
		);
	const rateRatios = (kind: Kind) =>
		pairwise(byKind[kind]!, webhookSamples, (a, b) => a.perSecond / b.perSecond);
	const ratios = rateRatios('trigger');
	const lost = (list: Sample[]) =>
		list.reduce((sum, s) => sum + (count - s.executions) + s.non200, 0);
	const diagnosis: Row[] = quick
		? []
		: [
				{
					measure: 'diagnosis: trigger with its repeat filter off',
					a: rate('trigger-no-repeat-filter', 'Callback Trigger'),
					b: rate('webhook', 'Webhook'),
					ratio: ratioCell(rateRatios('trigger-no-repeat-filter')),
					met: null,
				},
				{
					measure: 'diagnosis: Webhook with an expression parameter (n8n then sets up an isolate)',
					a: rate('webhook-expression', 'Webhook + expression'),
					b: rate('webhook', 'Webhook'),
					ratio: ratioCell(rateRatios('webhook-expression')),
					met: null,
				},
			];
	return {
		id: 'intake',
		title: `Callback intake: ${count.toLocaleString('en-US')} callbacks, concurrency ${CONCURRENCY}`,
		params: { count, concurrency: CONCURRENCY, rounds, kinds, save: 'success: all (counted)' },
		rows: [
			{
				measure: 'callbacks answered per second; ratio A/B',
				a: rate('trigger', 'Callback Trigger'),
				b: rate('webhook', 'Webhook'),
				ratio: ratioCell(ratios),
				goal: '≥ 0.95×',
				met: median(ratios) >= 0.95,
			},
			...diagnosis,
			{
				measure: 'executions started per round (API)',
				a: { label: 'Callback Trigger', value: triggerSamples.map((s) => s.executions).join(', ') },
				b: { label: 'Webhook', value: webhookSamples.map((s) => s.executions).join(', ') },
				goal: '0 lost',
				met: lost(triggerSamples) === 0,
			},
			{
				measure: `repeats recognised (last ${RESENT} sent again, one by one)`,
				a: {
					label: 'Callback Trigger',
					value: triggerSamples.map((s) => `${s.repeatsRecognised}/${RESENT}`).join(', '),
				},
				goal: `${RESENT}/${RESENT}`,
				met: triggerSamples.every((s) => s.repeatsRecognised === RESENT),
			},
			{
				measure: 'POST of the first callback → every execution finished',
				a: cell(
					'Callback Trigger',
					triggerSamples.map((s) => s.drainedMs),
					'ms',
				),
				b: cell(
					'Webhook',
					webhookSamples.map((s) => s.drainedMs),
					'ms',
				),
				met: null,
			},
		],
		notes: [
			`Lost (missing executions or non-200 answers): ${kinds.map((kind) => `${KIND_NAMES[kind]} ${lost(byKind[kind]!)}`).join(', ')}. ` +
				'Every callback has a new job_id, so the repeat filter (on by default) lets each one start the workflow.',
		],
		raw: { byKind },
	};
}
