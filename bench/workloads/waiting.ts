import { randomUUID } from 'node:crypto';

import type { DeliveryRecord } from '../../simulator/server';
import { defaultOwner, N8nClient, type WorkflowNode } from '../../test/e2e/harness/client';
import { startQueueCluster, type QueueCluster } from '../../test/e2e/harness/queue';
import { chain, profileAddResumingHere } from '../../test/e2e/harness/workflows';
import {
	postgresStore,
	sqliteStore,
	type ExecutionRow,
	type ExecutionStore,
} from '../lib/database';
import { createCredentials, type BenchEnvironment } from '../lib/instance';
import {
	cell,
	median,
	ratioCell,
	type BenchContext,
	type BenchResult,
	type Row,
} from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import { RssSampler } from '../lib/rss';
import {
	expectOk,
	packageNode,
	postWhenDatabaseReady,
	postWhenRegistered,
	saveSettings,
	UNFINISHED,
	webhookTrigger,
} from '../lib/workflows';

const ADD_PATH = '/api/v2/profiles/add';
/** Reviews per job, in turn: a few to a few hundred, as a chain's locations have. */
const REVIEWS_PER_JOB = [3, 10, 25, 60, 150, 300];
const STARTS_IN_FLIGHT = 16;
/** The service's delivery when paced (callbacks per second). */
const PACED_RATE = 50;
/** How a service that waits for each answer before the next, 16 at a time, sends. */
const SENDERS = 16;

/** How the simulator sends the callbacks once every job completes. */
interface Delivery {
	label: string;
	rate: number | null;
	concurrency: number | null;
	/** Rounds of each pattern; the flood runs once (it is about what is lost, not a timing). */
	rounds?: number;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Pattern = 'node' | 'waitNode';
const PATTERN_LABEL: Record<Pattern, string> = {
	node: 'Review Scraper, Wait for Completion',
	waitNode: 'HTTP Request → Wait node',
};

interface Target {
	pattern: Pattern;
	workflowId: string;
	url: string;
}

/** One n8n set-up: regular mode (the bench's own n8n, SQLite) or a queue-mode cluster. */
interface Mode {
	name: 'regular' | 'queue';
	description: string;
	client: N8nClient;
	store: ExecutionStore;
	webhookBase: string;
	processes: () => Array<{ name: string; pid: number }>;
	credentials: Record<string, { id: string; name: string }>;
	close(): Promise<void>;
}

interface Sample {
	executions: number;
	/** From the release of the jobs to the last execution's end. */
	allDoneMs: number;
	resumesPerSecond: number;
	latencyMs: { p50: number; p95: number; p99: number };
	refused: number;
	/** The first attempts' answers: `HTTP <status>` or the network error. */
	firstAnswers: Record<string, number>;
	/** Executions that had not succeeded when the run settled. */
	lost: number;
	/** Bytes n8n saved per waiting execution (median). */
	savedBytes: number;
	peakRssMb: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function until<T>(what: string, timeoutMs: number, check: () => T | undefined): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = check();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
		await sleep(250);
	}
}

const STILL_FOR_MS = 20_000;
const SETTLE_BOUND_MS = 180_000;

/**
 * The executions once every one has ended, or once none has ended for STILL_FOR_MS (those still
 * waiting were not resumed by their callback), at most SETTLE_BOUND_MS after the last callback.
 */
async function settled(mine: () => ExecutionRow[]): Promise<ExecutionRow[]> {
	const deadline = Date.now() + SETTLE_BOUND_MS;
	let rows = mine();
	let endedBefore = -1;
	let stillSince = Date.now();
	while (rows.some((e) => UNFINISHED.includes(e.status)) && Date.now() < deadline) {
		const ended = rows.filter((e) => !UNFINISHED.includes(e.status)).length;
		if (ended !== endedBefore) {
			endedBefore = ended;
			stillSince = Date.now();
		} else if (Date.now() - stillSince > STILL_FOR_MS) {
			break;
		}
		await sleep(500);
		rows = mine();
	}
	return rows;
}

async function inParallel(count: number, limit: number, work: (i: number) => Promise<void>) {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, count) }, async () => {
			while (next < count) await work(next++);
		}),
	);
}

function waitNode(): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Wait',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { resume: 'webhook', httpMethod: 'POST', options: {} },
	};
}

/** The same job both ways: one profile, its reviews count from the start call's body. */
async function deployTargets(mode: Mode, baseUrl: string): Promise<Record<Pattern, Target>> {
	const credential = { reviewScraperApi: mode.credentials.reviewScraperApi };
	const nodes: Record<Pattern, WorkflowNode[]> = {
		node: [
			packageNode(
				'reviewScraper',
				{
					resource: 'profile',
					operation: 'add',
					url: '={{ $json.body.url }}',
					additionalFields: { blocks: '={{ $json.body.blocks }}' },
					waitForCompletion: true,
				},
				credential,
				'Review Scraper',
			),
		],
		waitNode: [profileAddResumingHere(mode.credentials.reviewScraperApi, baseUrl), waitNode()],
	};
	const targets = {} as Record<Pattern, Target>;
	for (const pattern of Object.keys(nodes) as Pattern[]) {
		const path = `bench-waiting-${mode.name}-${pattern}`;
		// Every execution saved, as n8n's defaults do: what a waiting execution costs is measured.
		const { id } = await mode.client.createWorkflow({
			name: `bench waiting (${mode.name}): ${PATTERN_LABEL[pattern]}`,
			...chain([webhookTrigger(path, 'onReceived'), ...nodes[pattern]]),
			settings: saveSettings('all'),
		});
		await mode.client.activate(id);
		targets[pattern] = { pattern, workflowId: id, url: `${mode.webhookBase}/webhook/${path}` };
	}
	return targets;
}

const executionIdOf = (delivery: DeliveryRecord) =>
	/\/webhook-waiting\/(\d+)/.exec(delivery.url)?.[1];

/**
 * N executions of one pattern started and left waiting, every job then completed at one moment;
 * the callbacks go out at once or paced, and the run ends when every execution has ended.
 */
async function runOnce(
	env: BenchEnvironment,
	mode: Mode,
	target: Target,
	executions: number,
	delivery: Delivery,
	tag: string,
): Promise<Sample> {
	const { simulator } = env;
	simulator.reset();
	// The service's own retry policy, on a real clock: a callback refused under load is sent again
	// two hours later, so here it stays refused and its execution waiting, as users would see it.
	simulator.configure({
		holdCompletion: true,
		callbackRate: delivery.rate,
		callbackConcurrency: delivery.concurrency,
		callbackRetry: { policy: 'service' },
		timeScale: 1,
	});
	const earlier = new Set(mode.store.executions(target.workflowId).map((e) => e.id));
	const mine = () => mode.store.executions(target.workflowId).filter((e) => !earlier.has(e.id));

	await inParallel(executions, STARTS_IN_FLIGHT, async (i) => {
		const body = {
			url: `https://www.example.com/biz/${tag}-${i}`,
			blocks: REVIEWS_PER_JOB[i % REVIEWS_PER_JOB.length],
		};
		expectOk(await postWhenDatabaseReady(target.url, body, 60_000), `start ${i}`);
	});
	const waiting = await until(`${executions} executions waiting`, 300_000, () => {
		const rows = mine();
		return rows.length === executions && rows.every((e) => e.status === 'waiting')
			? rows
			: undefined;
	});
	const sent = simulator.requests().filter((r) => r.path === ADD_PATH).length;
	if (sent !== executions) throw new Error(`${sent} jobs submitted for ${executions} executions`);
	const savedBytes = median(mode.store.savedBytes(waiting.map((e) => e.id)));

	const samplers = mode.processes().map((p) => ({ name: p.name, sampler: new RssSampler(p.pid) }));
	const released = Date.now();
	if (simulator.releaseHeldJobs() !== executions) throw new Error('not every job was held');
	await until('every callback sent once, and answered or failed', 600_000, () =>
		simulator.deliveries().filter((d) => d.attemptLog.length > 0).length === executions
			? true
			: undefined,
	);
	const ended = await settled(mine);
	const peakRssMb = Object.fromEntries(samplers.map((s) => [s.name, s.sampler.stop().peakMb]));

	const deliveries = simulator.deliveries();
	const firstAnswers: Record<string, number> = {};
	for (const delivery of deliveries) {
		const first = delivery.attemptLog[0];
		const answer = first.status === null ? (first.error ?? 'no answer') : `HTTP ${first.status}`;
		firstAnswers[answer] = (firstAnswers[answer] ?? 0) + 1;
	}
	// n8n sets stoppedAt when an execution goes to wait too: only a success has ended its resume.
	const resumed = ended.filter((e) => e.status === 'success');
	const stoppedAt = new Map(resumed.map((e) => [e.id, e.stoppedAt]));
	const firstSent = Math.min(...deliveries.map((d) => Date.parse(d.attemptLog[0].sentAt)));
	const latencies: number[] = [];
	for (const delivery of deliveries) {
		const id = executionIdOf(delivery);
		const stopped = id === undefined ? null : stoppedAt.get(id);
		if (stopped) latencies.push(stopped - Date.parse(delivery.attemptLog[0].sentAt));
	}
	latencies.sort((a, b) => a - b);
	const succeeded = resumed.length;
	const lastStopped = succeeded ? Math.max(...resumed.map((e) => e.stoppedAt ?? 0)) : Number.NaN;
	return {
		executions,
		allDoneMs: lastStopped - released,
		resumesPerSecond: succeeded ? succeeded / ((lastStopped - firstSent) / 1000) : 0,
		latencyMs: {
			p50: percentile(latencies, 50),
			p95: percentile(latencies, 95),
			p99: percentile(latencies, 99),
		},
		// A callback the service had to send again: it retries 2, 6 and 24 hours later.
		refused: deliveries.filter((d) => d.attemptLog[0]?.status !== 200).length,
		firstAnswers,
		lost: executions - succeeded,
		savedBytes,
		peakRssMb,
	};
}

async function regularMode(env: BenchEnvironment): Promise<Mode> {
	return {
		name: 'regular',
		description: "regular mode, n8n's default database (SQLite)",
		client: env.client,
		store: sqliteStore(env.instance.userFolder),
		webhookBase: env.instance.url,
		processes: () => [{ name: 'n8n', pid: env.instance.pid }],
		credentials: env.credentials,
		close: async () => undefined,
	};
}

async function queueMode(env: BenchEnvironment): Promise<Mode> {
	const cluster: QueueCluster = await startQueueCluster({
		tarball: env.tarball,
		label: 'bench-queue',
		env: {
			main: { N8N_LOG_LEVEL: 'warn' },
			// n8n's default engine, as users run it.
			webhook: { N8N_LOG_LEVEL: 'warn', N8N_EXPRESSION_ENGINE: 'vm' },
			worker: { N8N_LOG_LEVEL: 'warn' },
		},
	});
	log(`queue cluster up in ${(cluster.startupMs / 1000).toFixed(1)} s`);
	try {
		const client = new N8nClient(cluster.main.url);
		await client.signIn(defaultOwner);
		await client.createApiKey('bench-queue');
		const credentials = await createCredentials(client, env.simulator, 'bench queue', {
			requestsPerSecond: 0,
		});
		return {
			name: 'queue',
			description: 'queue mode: PostgreSQL, Redis, main, a webhook process, two workers',
			client,
			store: postgresStore(cluster.postgres),
			webhookBase: cluster.webhook.url,
			processes: () =>
				cluster
					.processes()
					.filter((p) => p.alive)
					.map((p) => ({ name: p.name, pid: p.pid })),
			credentials,
			close: () => cluster.stop(),
		};
	} catch (error) {
		await cluster.stop();
		throw error;
	}
}

function rowsFor(
	mode: Mode,
	paceLabel: string,
	ours: Sample[],
	theirs: Sample[],
	withSavedBytes: boolean,
): Row[] {
	const a = PATTERN_LABEL.node;
	const b = PATTERN_LABEL.waitNode;
	const prefix = `${mode.name}, ${paceLabel}:`;
	const resumeRatios = pairwise(ours, theirs, (x, y) => x.resumesPerSecond / y.resumesPerSecond);
	const p95Ratios = pairwise(ours, theirs, (x, y) => x.latencyMs.p95 / y.latencyMs.p95);
	const rows: Row[] = [
		{
			measure: `${prefix} resumes per second (ratio A/B)`,
			a: cell(
				a,
				ours.map((s) => s.resumesPerSecond),
				'/s',
			),
			b: cell(
				b,
				theirs.map((s) => s.resumesPerSecond),
				'/s',
			),
			ratio: ratioCell(resumeRatios),
			goal: '≥ 1.0×',
			met: median(resumeRatios) >= 1,
		},
		{
			measure: `${prefix} callback → execution ended, p95`,
			a: cell(
				a,
				ours.map((s) => s.latencyMs.p95),
				'ms',
			),
			b: cell(
				b,
				theirs.map((s) => s.latencyMs.p95),
				'ms',
			),
			ratio: ratioCell(p95Ratios),
			goal: '≤ 1.1×',
			met: median(p95Ratios) <= 1.1,
		},
		...(['p50', 'p99'] as const).map((p) => ({
			measure: `${prefix} callback → execution ended, ${p}`,
			a: cell(
				a,
				ours.map((s) => s.latencyMs[p]),
				'ms',
			),
			b: cell(
				b,
				theirs.map((s) => s.latencyMs[p]),
				'ms',
			),
			ratio: ratioCell(pairwise(ours, theirs, (x, y) => x.latencyMs[p] / y.latencyMs[p])),
			met: null,
		})),
		{
			measure: `${prefix} release of the jobs → every execution ended`,
			a: cell(
				a,
				ours.map((s) => s.allDoneMs),
				'ms',
			),
			b: cell(
				b,
				theirs.map((s) => s.allDoneMs),
				'ms',
			),
			ratio: ratioCell(pairwise(ours, theirs, (x, y) => x.allDoneMs / y.allDoneMs)),
			met: null,
		},
		{
			measure: `${prefix} callbacks refused (first answer not 200: the service retries 2 h later)`,
			a: cell(
				a,
				ours.map((s) => s.refused),
				'count',
			),
			b: cell(
				b,
				theirs.map((s) => s.refused),
				'count',
			),
			goal: '0',
			met: ours.every((s) => s.refused === 0),
		},
		{
			measure: `${prefix} executions not succeeded when the run settled`,
			a: cell(
				a,
				ours.map((s) => s.lost),
				'count',
			),
			b: cell(
				b,
				theirs.map((s) => s.lost),
				'count',
			),
			goal: '0',
			met: ours.every((s) => s.lost === 0),
		},
	];
	for (const name of Object.keys(ours[0]?.peakRssMb ?? {})) {
		rows.push({
			measure: `${prefix} peak RSS, ${name} process`,
			a: cell(
				a,
				ours.map((s) => s.peakRssMb[name]),
				'MB',
			),
			b: cell(
				b,
				theirs.map((s) => s.peakRssMb[name]),
				'MB',
			),
			ratio: ratioCell(pairwise(ours, theirs, (x, y) => x.peakRssMb[name] / y.peakRssMb[name])),
			met: null,
		});
	}
	if (withSavedBytes) {
		const ratios = pairwise(ours, theirs, (x, y) => x.savedBytes / y.savedBytes);
		rows.push({
			measure: `${mode.name}: bytes saved per waiting execution (execution data, workflow copy, custom data)`,
			a: cell(
				a,
				ours.map((s) => s.savedBytes),
				'count',
			),
			b: cell(
				b,
				theirs.map((s) => s.savedBytes),
				'count',
			),
			ratio: ratioCell(ratios),
			goal: '≤ 1.1×',
			met: median(ratios) <= 1.1,
		});
	}
	return rows;
}

/**
 * Many executions waiting at once, their callbacks arriving together (issue 48): Profile → Add
 * with Wait for Completion against n8n's documented pattern (HTTP Request sending
 * `$execution.resumeUrl`, then the Wait node "On Webhook Call"), in regular and in queue mode.
 */
export async function waitingAtScale(context: BenchContext): Promise<BenchResult> {
	const { env, quick } = context;
	const executions = quick ? 40 : 1000;
	const rounds = quick ? 1 : 2;
	const allDeliveries: Delivery[] = [
		{
			label: `callbacks as fast as n8n answers (${SENDERS} in flight)`,
			rate: null,
			concurrency: SENDERS,
		},
		{ label: `callbacks at ${PACED_RATE}/s`, rate: PACED_RATE, concurrency: null },
		{ label: 'every callback at once', rate: null, concurrency: null, rounds: 1 },
	];
	// The quick run (CI's smoke run) takes one way in each mode: the other two differ only in the
	// simulator's pacing, which its own tests cover, and each took CI about 25 s more.
	const deliveries = quick ? allDeliveries.slice(0, 1) : allDeliveries;
	// And regular mode only: a queue cluster took it 40 s to start, and the same CI runs many
	// executions waiting in queue mode in test/e2e-queue/waiting-at-scale.test.ts.
	const modes = quick ? [regularMode] : [regularMode, queueMode];
	const rows: Row[] = [];
	const raw: Record<string, unknown> = {};
	const notes: string[] = [];
	for (const start of modes) {
		const mode = await start(env);
		try {
			const targets = await deployTargets(mode, env.simulator.urls.baseUrl);
			// A first execution of each pattern loads and compiles what the timed ones use.
			for (const target of Object.values(targets)) {
				env.simulator.reset();
				env.simulator.configure({ completionDelayMs: 100 });
				expectOk(
					await postWhenRegistered(target.url, {
						url: 'https://www.example.com/biz/warm',
						blocks: 3,
					}),
					`${mode.name} warm-up`,
				);
				await env.simulator.waitForDeliveries(1, 60_000);
			}
			for (const [index, delivery] of deliveries.entries()) {
				const roundsHere = delivery.rounds ?? rounds;
				log(
					`waiting (${mode.name}, ${delivery.label}): ${executions} executions, ${roundsHere} round(s)`,
				);
				const run = (pattern: Pattern) => (round: number) =>
					runOnce(
						env,
						mode,
						targets[pattern],
						executions,
						delivery,
						`${mode.name}-${index}-${round}-${pattern}`,
					);
				const [ours, theirs] = await alternate(
					roundsHere,
					[
						{ name: PATTERN_LABEL.node, run: run('node') },
						{ name: PATTERN_LABEL.waitNode, run: run('waitNode') },
					],
					(s) =>
						`${s.resumesPerSecond.toFixed(1)} resumes/s, p95 ${Math.round(s.latencyMs.p95)} ms, all in ${(s.allDoneMs / 1000).toFixed(1)} s, ${s.refused} refused (${Object.entries(
							s.firstAnswers,
						)
							.map(([a, n]) => `${a}: ${n}`)
							.join(
								', ',
							)}), ${s.lost} lost, ${Math.round(s.savedBytes / 1024)} KiB saved each, RSS ${Object.entries(
							s.peakRssMb,
						)
							.map(([n, mb]) => `${n} ${Math.round(mb)} MB`)
							.join(', ')}`,
				);
				rows.push(...rowsFor(mode, delivery.label, ours, theirs, index === 0));
				raw[`${mode.name}, ${delivery.label}`] = { ours, theirs };
			}
			notes.push(
				`${mode.name}: ${mode.description}. Latency from the callback's POST to the execution's stoppedAt as n8n saved it; resumes per second from the first callback sent to the last execution ended.`,
			);
		} finally {
			mode.store.close();
			await mode.close();
		}
	}
	env.simulator.reset();
	const answers = (pick: 'ours' | 'theirs') => {
		const count: Record<string, number> = {};
		for (const run of Object.values(raw) as Array<Record<'ours' | 'theirs', Sample[]>>) {
			for (const sample of run[pick]) {
				for (const [answer, n] of Object.entries(sample.firstAnswers)) {
					count[answer] = (count[answer] ?? 0) + n;
				}
			}
		}
		return Object.entries(count)
			.map(([answer, n]) => `${answer} × ${n.toLocaleString('en-US')}`)
			.join(', ');
	};
	notes.push(
		`${executions.toLocaleString('en-US')} executions per run, each one profile of ${REVIEWS_PER_JOB.join(', ')} reviews in turn; every job held until all executions were waiting, then completed at one moment. The simulator retries as the service does (2, 6, 24 hours later, real clock here): a refused callback leaves its execution waiting. First answers over every run: ours ${answers('ours')}; Wait node ${answers('theirs')}.`,
	);
	return {
		id: 'waiting',
		title: `Waiting at scale: ${executions.toLocaleString('en-US')} executions waiting at once`,
		params: { executions, rounds, deliveries, reviewsPerJob: REVIEWS_PER_JOB },
		rows,
		notes,
		raw,
	};
}
