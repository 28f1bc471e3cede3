import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { N8nClient, WorkflowNode } from '../../test/e2e/harness/client';
import {
	cell,
	median,
	ratioCell,
	type BenchContext,
	type BenchResult,
	type Row,
} from '../lib/result';
import { startEnvironment, type BenchEnvironment } from '../lib/instance';
import { summarize } from '../lib/stats';
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

const SECRET_HEADER = 'x-callback-secret';
const SECRET = 'bench-intake-secret';

/** Checks the secret, takes review job callbacks only and drops repeats, as a user sets it up. */
function callbackTrigger(dedupe: boolean): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Scraping Callback Trigger',
		type: `${PACKAGE}.scrapingCallbackTrigger`,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			kinds: ['reviewJob'],
			requireSecret: true,
			secret: SECRET,
			secretLocation: 'header',
			options: dedupe ? {} : { dedupe: false },
		},
	};
}

/**
 * What a user builds without the trigger for the same work: the Webhook node checks the secret
 * with a header auth credential, an If keeps review job callbacks (a job_id, no request_id), and
 * n8n's Remove Duplicates node drops a job_id seen in an earlier execution.
 */
function userBuiltChain(credential: { id: string; name: string }, path: string): WorkflowNode[] {
	const webhook = webhookTrigger(path, 'onReceived');
	webhook.parameters.authentication = 'headerAuth';
	webhook.credentials = { httpHeaderAuth: credential };
	const condition = (leftValue: string, operation: 'exists' | 'notExists') => ({
		id: randomUUID(),
		leftValue,
		rightValue: '',
		operator: { type: 'string', operation, singleValue: true },
	});
	const ifNode: WorkflowNode = {
		id: randomUUID(),
		name: 'If review job',
		type: 'n8n-nodes-base.if',
		typeVersion: 2.2,
		position: [0, 0],
		parameters: {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
				conditions: [
					condition('={{ $json.body.job_id }}', 'exists'),
					condition('={{ $json.body.request_id }}', 'notExists'),
				],
				combinator: 'and',
			},
			options: {},
		},
	};
	const removeDuplicates: WorkflowNode = {
		id: randomUUID(),
		name: 'Remove Duplicates',
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		position: [0, 0],
		parameters: {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.body.job_id }}',
			options: {},
		},
	};
	return [webhook, ifNode, removeDuplicates];
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
			const posted = await post(target.url, payloads[next++], 30_000, AUTH);
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

type Kind = 'trigger' | 'user' | 'webhook' | 'trigger-no-repeat-filter' | 'webhook-expression';

const KIND_NAMES: Record<Kind, string> = {
	trigger: 'Scraping Callback Trigger',
	user: 'Webhook (header auth) → If → Remove Duplicates',
	webhook: 'Webhook',
	'trigger-no-repeat-filter': 'Scraping Callback Trigger, repeat filter off',
	'webhook-expression': 'Webhook with one expression parameter',
};

/** Every delivery carries the secret; the bare Webhook ignores it. */
const AUTH = { [SECRET_HEADER]: SECRET };

const headerCredentials = new WeakMap<N8nClient, Promise<{ id: string; name: string }>>();

function headerCredential(client: N8nClient) {
	let credential = headerCredentials.get(client);
	if (!credential) {
		credential = client.createCredential('bench callback secret', 'httpHeaderAuth', {
			name: SECRET_HEADER,
			value: SECRET,
		});
		headerCredentials.set(client, credential);
	}
	return credential;
}

/** One variant of intake: a workflow of `kind` in `env`, fresh each round, `count` callbacks. */
function intakeVariant(env: BenchEnvironment, kind: Kind, count: number, label = '') {
	const { client } = env;
	const deployKind = async (round: number): Promise<Deployed> => {
		const name = `bench intake ${label}${round}: ${KIND_NAMES[kind]}`;
		if (kind === 'trigger' || kind === 'trigger-no-repeat-filter') {
			const trigger = callbackTrigger(kind === 'trigger');
			return await deploy(client, name, trigger, [], 'all', `${trigger.webhookId}/callback`);
		}
		const path = `bench-intake-${round}-${randomUUID()}`;
		if (kind === 'user') {
			const [webhook, ...rest] = userBuiltChain(await headerCredential(client), path);
			return await deploy(client, name, webhook, rest, 'all', path);
		}
		const webhook = webhookTrigger(path, 'onReceived');
		if (kind === 'webhook-expression') webhook.parameters.options = { ignoreBots: '={{ false }}' };
		return await deploy(client, name, webhook, [], 'all', path);
	};

	// New workflows per round: each one's execution count is then that round's.
	return async (round: number) => {
		const deployed = await deployKind(round);
		// The warm-up delivery is one execution more.
		expectOk(await postWhenRegistered(deployed.url, callbackPayload(), AUTH), `${kind} warm-up`);
		await waitForExecutions(client, deployed.id, 1);
		const payloads = Array.from({ length: count }, callbackPayload);
		const sample = await deliver(client, deployed, payloads, 1);
		if (kind === 'trigger') {
			// The service retries deliveries: a repeat of a recent one must not start the workflow.
			sample.repeatsRecognised = 0;
			for (const payload of payloads.slice(-RESENT)) {
				const answer = await post(deployed.url, payload, undefined, AUTH);
				if (answer.text.includes('"duplicate":true')) sample.repeatsRecognised++;
			}
		}
		await client.deactivate(deployed.id);
		return sample;
	};
}

const describeSample = (s: Sample) =>
	`${Math.round(s.perSecond)}/s, ${s.executions} executions, ${s.non200} non-200, drained in ${Math.round(s.drainedMs)} ms` +
	(s.repeatsRecognised === undefined
		? ''
		: `, ${s.repeatsRecognised}/${RESENT} repeats recognised`);

const rate = (samples: Sample[], label: string) =>
	cell(
		label,
		samples.map((s) => s.perSecond),
		'/s',
	);
const rateRatios = (a: Sample[], b: Sample[]) =>
	pairwise(a, b, (x, y) => x.perSecond / y.perSecond);

/**
 * The Scraping Callback Trigger (secret, review jobs only, repeat filter) against what a user
 * builds for the same work from n8n's own nodes, and against the bare Webhook node as n8n's
 * ceiling. The full mode adds two variants that tell the causes of a gap apart: the trigger
 * without its repeat filter (no static-data write per callback), and a Webhook node with an
 * expression among its parameters, for which n8n sets up an expression isolate per call as it
 * does for every trigger other than its own Webhook node with static parameters.
 */
export async function callbackIntake({ env, quick }: BenchContext): Promise<BenchResult> {
	const count = quick ? 100 : 400;
	const rounds = quick ? 1 : 4;
	const kinds: Kind[] = quick
		? ['trigger', 'user', 'webhook']
		: ['trigger', 'user', 'webhook', 'trigger-no-repeat-filter', 'webhook-expression'];

	log(`callback intake: ${count} callbacks, concurrency ${CONCURRENCY}, ${rounds} rounds`);
	const samples = await alternate(
		rounds,
		kinds.map((kind) => ({ name: KIND_NAMES[kind], run: intakeVariant(env, kind, count) })),
		describeSample,
	);
	const byKind = Object.fromEntries(kinds.map((kind, i) => [kind, samples[i]])) as Partial<
		Record<Kind, Sample[]>
	>;
	const triggerSamples = byKind.trigger!;
	const userSamples = byKind.user!;
	const webhookSamples = byKind.webhook!;

	const ratios = rateRatios(triggerSamples, userSamples);
	const lost = (list: Sample[]) =>
		list.reduce((sum, s) => sum + (count - s.executions) + s.non200, 0);
	const diagnosis: Row[] = quick
		? []
		: [
				{
					measure: 'diagnosis: trigger with its repeat filter off',
					a: rate(byKind['trigger-no-repeat-filter']!, 'Callback Trigger'),
					b: rate(webhookSamples, 'Webhook'),
					ratio: ratioCell(rateRatios(byKind['trigger-no-repeat-filter']!, webhookSamples)),
					met: null,
				},
				{
					measure: 'diagnosis: Webhook with an expression parameter (n8n then sets up an isolate)',
					a: rate(byKind['webhook-expression']!, 'Webhook + expression'),
					b: rate(webhookSamples, 'Webhook'),
					ratio: ratioCell(rateRatios(byKind['webhook-expression']!, webhookSamples)),
					met: null,
				},
			];
	return {
		id: 'intake',
		title: `Callback intake: ${count.toLocaleString('en-US')} callbacks, concurrency ${CONCURRENCY}`,
		params: { count, concurrency: CONCURRENCY, rounds, kinds, save: 'success: all (counted)' },
		rows: [
			{
				measure: 'callbacks answered per second, same work (secret, kind, repeats); ratio A/B',
				a: rate(triggerSamples, 'Callback Trigger'),
				b: rate(userSamples, 'Webhook → If → Remove Duplicates'),
				ratio: ratioCell(ratios),
				goal: '≥ 1.0×',
				met: median(ratios) >= 1,
			},
			{
				measure: 'ceiling: the bare Webhook node (none of that work); ratio A/B',
				a: rate(triggerSamples, 'Callback Trigger'),
				b: rate(webhookSamples, 'Webhook'),
				ratio: ratioCell(rateRatios(triggerSamples, webhookSamples)),
				met: null,
			},
			...diagnosis,
			{
				measure: 'executions started per round (API)',
				a: { label: 'Callback Trigger', value: triggerSamples.map((s) => s.executions).join(', ') },
				b: {
					label: 'Webhook → If → Remove Duplicates',
					value: userSamples.map((s) => s.executions).join(', '),
				},
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
					'Webhook → If → Remove Duplicates',
					userSamples.map((s) => s.drainedMs),
					'ms',
				),
				met: null,
			},
		],
		notes: [
			`Lost (missing executions or non-200 answers): ${kinds.map((kind) => `${KIND_NAMES[kind]} ${lost(byKind[kind]!)}`).join(', ')}. ` +
				'Every callback has a new job_id, so neither repeat filter keeps one from starting the workflow. The trigger checks the secret (header), takes review job callbacks only and filters repeats; the user-built chain does the same with a header auth credential, an If on job_id/request_id and Remove Duplicates on the job_id (which drops a repeat inside an execution it has already started).',
		],
		raw: { byKind },
	};
}

/** n8n settings the expression engine diagnostic compares, each in its own n8n instance. */
const ENGINE_SETTINGS: Array<{ id: string; label: string; env: Record<string, string> }> = [
	{ id: 'legacy', label: 'N8N_EXPRESSION_ENGINE=legacy', env: { N8N_EXPRESSION_ENGINE: 'legacy' } },
	{
		id: 'pool2',
		label: 'N8N_EXPRESSION_ENGINE_POOL_SIZE=2',
		env: { N8N_EXPRESSION_ENGINE_POOL_SIZE: '2' },
	},
];

/**
 * How n8n's expression engine settings move intake: the package's own cost with the legacy engine
 * (no isolate per call) and whether a larger isolate pool helps. Every instance runs at once, idle
 * but for the variant being measured, so rounds alternate across them like any other pair.
 */
export async function expressionEngineIntake({ env, quick }: BenchContext): Promise<BenchResult> {
	const count = quick ? 50 : 200;
	const rounds = quick ? 1 : 3;
	const others: Record<string, BenchEnvironment> = {};
	try {
		for (const setting of ENGINE_SETTINGS) {
			log(`expression engine: starting n8n with ${setting.label}`);
			others[setting.id] = await startEnvironment({ n8nEnv: setting.env });
		}
		const variants = [
			{ name: 'default: Callback Trigger', run: intakeVariant(env, 'trigger', count, 'vm ') },
			{ name: 'default: Webhook', run: intakeVariant(env, 'webhook', count, 'vm ') },
			{
				name: 'legacy: Callback Trigger',
				run: intakeVariant(others.legacy, 'trigger', count, 'legacy '),
			},
			{ name: 'legacy: Webhook', run: intakeVariant(others.legacy, 'webhook', count, 'legacy ') },
			{
				name: 'pool 2: Callback Trigger',
				run: intakeVariant(others.pool2, 'trigger', count, 'pool2 '),
			},
			{
				name: 'pool 2: user-built chain',
				run: intakeVariant(others.pool2, 'user', count, 'pool2 '),
			},
			{ name: 'default: user-built chain', run: intakeVariant(env, 'user', count, 'vm ') },
		];
		log(`expression engine: ${count} callbacks, ${rounds} rounds, ${variants.length} variants`);
		const [vmTrigger, vmWebhook, legacyTrigger, legacyWebhook, poolTrigger, poolUser, vmUser] =
			await alternate(rounds, variants, describeSample);
		return {
			id: 'intake-engine',
			title: `Callback intake under n8n's expression engine settings: ${count} callbacks, concurrency ${CONCURRENCY}`,
			params: { count, rounds, concurrency: CONCURRENCY, settings: ENGINE_SETTINGS },
			rows: [
				{
					measure: 'default engine (vm, pool 1): trigger vs bare Webhook; ratio A/B',
					a: rate(vmTrigger, 'Callback Trigger'),
					b: rate(vmWebhook, 'Webhook'),
					ratio: ratioCell(rateRatios(vmTrigger, vmWebhook)),
					met: null,
				},
				{
					measure: "legacy engine: trigger vs bare Webhook (the package's own cost); ratio A/B",
					a: rate(legacyTrigger, 'Callback Trigger'),
					b: rate(legacyWebhook, 'Webhook'),
					ratio: ratioCell(rateRatios(legacyTrigger, legacyWebhook)),
					met: null,
				},
				{
					measure: 'Callback Trigger, legacy vs default engine; ratio A/B',
					a: rate(legacyTrigger, 'legacy'),
					b: rate(vmTrigger, 'default'),
					ratio: ratioCell(rateRatios(legacyTrigger, vmTrigger)),
					met: null,
				},
				{
					measure: 'Callback Trigger, pool size 2 vs 1; ratio A/B',
					a: rate(poolTrigger, 'pool 2'),
					b: rate(vmTrigger, 'pool 1'),
					ratio: ratioCell(rateRatios(poolTrigger, vmTrigger)),
					met: null,
				},
				{
					measure: 'user-built chain, pool size 2 vs 1; ratio A/B',
					a: rate(poolUser, 'pool 2'),
					b: rate(vmUser, 'pool 1'),
					ratio: ratioCell(rateRatios(poolUser, vmUser)),
					met: null,
				},
			],
			notes: [
				'Three n8n instances run at once (default, legacy engine, pool size 2); only the one being measured gets callbacks. The legacy engine evaluates expressions in the main process without an isolate; it is a diagnostic, not a recommendation.',
			],
			raw: { vmTrigger, vmWebhook, legacyTrigger, legacyWebhook, poolTrigger, poolUser, vmUser },
		};
	} finally {
		for (const other of Object.values(others)) await other.close();
	}
}

/** n8n's expression-engine counters (N8N_METRICS=true) and the process's CPU time, at one moment. */
interface EngineReading {
	/** Isolates taken from the pool (each is disposed and rebuilt when given back). */
	acquired: number;
	/** Expressions evaluated in an isolate. */
	evaluations: number;
	/** User + system CPU time of the n8n process, all threads, in ms. */
	cpuMs: number;
}

const CLOCK_TICKS_PER_SECOND = 100;

function processCpuMs(pid: number): number {
	// Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

async function readEngine(env: BenchEnvironment): Promise<EngineReading> {
	const text = await (await fetch(`${env.instance.url}/metrics`)).text();
	const sum = (name: string) =>
		text
			.split('\n')
			.filter((line) => line.startsWith(name) && !line.startsWith('#'))
			.reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
	return {
		acquired: sum('n8n_expression_pool_acquired_total'),
		evaluations: sum('n8n_expression_evaluation_duration_seconds_count'),
		cpuMs: processCpuMs(env.instance.pid),
	};
}

type IsolateKind = 'webhook' | 'webhook-v1' | 'webhook-v1-raw' | 'trigger';

const ISOLATE_KIND_NAMES: Record<IsolateKind, string> = {
	webhook: 'Webhook (v2)',
	'webhook-v1': 'Webhook v1, Raw Body off',
	'webhook-v1-raw': 'Webhook v1, Raw Body on',
	trigger: 'Scraping Callback Trigger',
};

interface IsolateSample extends Sample {
	/** Per callback, over the timed callbacks (warm-up excluded). */
	acquiredPerCallback: number;
	evaluationsPerCallback: number;
	cpuMsPerCallback: number;
}

/** One variant of the isolate diagnosis: like `intakeVariant`, plus the engine's counters. */
function isolateVariant(env: BenchEnvironment, kind: IsolateKind, count: number, label: string) {
	const { client } = env;
	const deployKind = async (round: number): Promise<Deployed> => {
		const name = `bench isolates ${label}${round}: ${ISOLATE_KIND_NAMES[kind]}`;
		if (kind === 'trigger') {
			const trigger = callbackTrigger(true);
			return await deploy(client, name, trigger, [], 'all', `${trigger.webhookId}/callback`);
		}
		const path = `bench-isolates-${round}-${randomUUID()}`;
		const webhook = webhookTrigger(path, 'onReceived');
		if (kind !== 'webhook') {
			webhook.typeVersion = 1;
			webhook.parameters = {
				httpMethod: 'POST',
				path,
				responseMode: 'onReceived',
				options: kind === 'webhook-v1-raw' ? { binaryData: true } : {},
			};
		}
		return await deploy(client, name, webhook, [], 'all', path);
	};
	return async (round: number): Promise<IsolateSample> => {
		const deployed = await deployKind(round);
		expectOk(await postWhenRegistered(deployed.url, callbackPayload(), AUTH), `${kind} warm-up`);
		await waitForExecutions(client, deployed.id, 1);
		const payloads = Array.from({ length: count }, callbackPayload);
		const before = await readEngine(env);
		const sample = await deliver(client, deployed, payloads, 1);
		const after = await readEngine(env);
		await client.deactivate(deployed.id);
		return {
			...sample,
			acquiredPerCallback: (after.acquired - before.acquired) / count,
			evaluationsPerCallback: (after.evaluations - before.evaluations) / count,
			cpuMsPerCallback: (after.cpuMs - before.cpuMs) / count,
		};
	};
}

/** n8n settings the isolate diagnosis runs under, each in an instance of its own. */
const ISOLATE_SETTINGS: Array<{ id: string; label: string; env: Record<string, string> }> = [
	{ id: 'default', label: 'default engine (vm, eager)', env: {} },
	{
		id: 'lazy',
		label: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
];

const decimal = (samples: number[], digits: number) => {
	const { median: mid, min, max } = summarize(samples);
	const format = (value: number) => value.toFixed(digits);
	return min === max ? format(mid) : `${format(mid)} (${format(min)}–${format(max)})`;
};

/**
 * Where the trigger's intake goes, against n8n's own Webhook node: the bare Webhook (current
 * version, which n8n lets skip the expression isolate while it handles the request), the Webhook
 * at type version 1 (for which n8n evaluates `$parameter["options"]["binaryData"]` per request)
 * with its raw body switch off and on, and the trigger. Per callback: n8n's own count of isolates
 * taken from its pool and of expressions evaluated (its Prometheus metrics), and the n8n process's
 * CPU time, all threads. Under the default engine and with lazy acquisition. Run on request only
 * (`--only=intake-isolates`).
 */
export async function isolateDiagnosis({ quick }: BenchContext): Promise<BenchResult> {
	const count = quick ? 50 : 200;
	const rounds = quick ? 1 : 3;
	const kinds: IsolateKind[] = ['webhook', 'webhook-v1', 'webhook-v1-raw', 'trigger'];
	const envs: Record<string, BenchEnvironment> = {};
	try {
		for (const setting of ISOLATE_SETTINGS) {
			log(`isolates: starting n8n with ${setting.label}`);
			envs[setting.id] = await startEnvironment({
				n8nEnv: { N8N_METRICS: 'true', ...setting.env },
				name: `bench-${setting.id}`,
			});
		}
		const variants = ISOLATE_SETTINGS.flatMap((setting) =>
			kinds.map((kind) => ({
				name: `${setting.id}: ${ISOLATE_KIND_NAMES[kind]}`,
				run: isolateVariant(envs[setting.id], kind, count, `${setting.id} `),
			})),
		);
		log(`isolates: ${count} callbacks, ${rounds} rounds, ${variants.length} variants`);
		const samples = await alternate(
			rounds,
			variants,
			(s) =>
				`${describeSample(s)}; per callback ${s.acquiredPerCallback.toFixed(2)} isolates, ${s.evaluationsPerCallback.toFixed(2)} evaluations, ${s.cpuMsPerCallback.toFixed(1)} ms CPU`,
		);
		const rows: Row[] = [];
		ISOLATE_SETTINGS.forEach((setting, s) => {
			const webhook = samples[s * kinds.length];
			kinds.forEach((kind, k) => {
				const own = samples[s * kinds.length + k];
				rows.push({
					measure: `${setting.label}: ${ISOLATE_KIND_NAMES[kind]}; per callback: isolates taken, expressions evaluated, n8n CPU ms; rate ratio to Webhook (v2)`,
					a: rate(own, ISOLATE_KIND_NAMES[kind]),
					b: {
						label: 'per callback',
						value: `${decimal(
							own.map((x) => x.acquiredPerCallback),
							2,
						)} isolates; ${decimal(
							own.map((x) => x.evaluationsPerCallback),
							2,
						)} evaluations; ${decimal(
							own.map((x) => x.cpuMsPerCallback),
							1,
						)} ms CPU`,
					},
					ratio: ratioCell(rateRatios(own, webhook)),
					met: null,
				});
			});
		});
		return {
			id: 'intake-isolates',
			title: `Callback intake: where the expression isolate is paid, ${count} callbacks, concurrency ${CONCURRENCY}`,
			params: { count, rounds, concurrency: CONCURRENCY, kinds, settings: ISOLATE_SETTINGS },
			rows,
			notes: [
				"Isolates and evaluations are n8n's own counters (N8N_METRICS=true: n8n_expression_pool_acquired_total, n8n_expression_evaluation_duration_seconds_count), read before and after the timed callbacks; CPU is the n8n process's user + system time over the same span, all threads (isolated-vm builds isolates off the main thread). Each taken isolate is disposed when given back and the pool builds a fresh one.",
				'Every instance runs at once; only the one being measured gets callbacks. The trigger runs with secret (header), kind filter and repeat filter on; the Webhook variants answer on receipt and do nothing else.',
			],
			raw: Object.fromEntries(variants.map((variant, i) => [variant.name, samples[i]])),
		};
	} finally {
		for (const other of Object.values(envs)) await other.close();
	}
}
