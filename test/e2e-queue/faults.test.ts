/**
 * No acknowledged delivery lost when a process of the production stack dies or is updated. The
 * queue suite's twin, which global setup starts as users do (`npm start -- --scale`, with
 * `--control` for the kills and restarts: deploy/n8n.env, two webhook processes behind
 * deploy/haproxy.cfg, two workers, n8n's own shutdown grace), runs the "each result handled once,
 * none lost" example (Scraping Callback Trigger → Remove Duplicates on deliveryKey → the Data Table
 * scrape_jobs: not handled yet? → handle → mark handled; and its hourly catch-up, which reads from
 * the service the jobs not handled). Each delivery is the result of a job the simulator ran.
 * Deliveries stream in through the front while a fault happens; then, as the service does, every
 * delivery not answered 2xx is sent again; then the catch-up runs once. PostgreSQL is restarted
 * the documented way only (deploy/restart-postgres.sh): restarted under deliveries, it loses some
 * by n8n's rules (docs/production.md).
 * Nothing lost: every job is handled, what n8n lost after answering its delivery by the catch-up,
 * and a job delivered once is handled once (one the service delivered twice may pass n8n's Remove
 * Duplicates twice: its race, docs/results-delivery.md).
 * FAULT_TEST_DELIVERIES (default 200) sets the stream's size; `npm run bench` has none of these.
 * Last, Ctrl-C stops the twin (docs/production.md: "Ctrl-C stops everything, and its database is
 * thrown away"), as a terminal sends it: to npm, its shell, tsx and the script at once. So this
 * file runs last in its jest run (scripts/jest-sequencer.js).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { launchBrowser, signIn } from '../e2e/harness/browser';
import type { Execution, N8nClient } from '../e2e/harness/client';
import { loadExamples, prepareExample } from '../e2e/harness/examples';
import { recordN8nFault } from '../e2e/harness/n8nFaults';
import { artifactsDir, repoRoot } from '../e2e/harness/paths';
import { descendantsOf, stillRunning } from '../e2e/harness/processTree';
import type { QueueControl } from '../e2e/harness/queue-control';
import type { QueueState, SuiteState } from '../e2e/harness/state';
import { twinExit, twinOutput, type TwinRecord } from '../e2e/harness/twin';
import { findDataTable } from '../e2e/harness/dataTables';
import { webhookNode } from '../e2e/harness/workflows';
import { allExecutions, postCallback, retryEach, sleep, useQueueE2e } from './helpers';

const DELIVERIES = Number(process.env.FAULT_TEST_DELIVERIES) || 200;
const SENDERS = 8;
/** Past DELIVERIES, a delivery a second: each step of the update still meets several. */
const TRAILING_GAP_MS = 1000;
const POST_TIMEOUT_MS = 60_000;
const SETTLE_TIMEOUT_MS = 180_000;
/** Queue recovery runs each minute (deploy/n8n.env); the first run may be up to that late. */
const RECOVERY_TIMEOUT_MS = 150_000;
const EXAMPLE = 'scrape-results-none-lost.json';
const JOBS_TABLE = 'scrape_jobs';
const CATCH_UP_TRIGGER = 'Every Hour';
const CATCH_UP_SOURCE = 'Submitted over an Hour Ago, Not Handled';
const TRIGGER = 'Scraping Callback Trigger';
const HANDLED = 'Handle Results';

/** The documented update's order and grace, read from the script users run (deploy/update.sh). */
function documentedUpdate(): { order: string[]; graceMs: number; settleMs: number } {
	const script = readFileSync(path.join(repoRoot, 'deploy', 'update.sh'), 'utf8');
	const value = (name: string) => new RegExp(`^${name}=(.+)$`, 'm').exec(script)?.[1] ?? '';
	const order = value('UPDATE_ORDER').replace(/[()]/g, '').split(' ').filter(Boolean);
	const twinNames: Record<string, string[]> = {
		n8n: ['main'],
		'n8n-webhook-1': ['webhook'],
		'n8n-webhook-2': ['webhook1'],
		'n8n-worker-1': ['worker0'],
		'n8n-worker-2': ['worker1'],
	};
	return {
		order: order.flatMap((service) => {
			const names = twinNames[service];
			if (!names) throw new Error(`deploy/update.sh names "${service}", unknown to this test`);
			return names;
		}),
		graceMs: Number(value('STOP_GRACE_SECONDS')) * 1000,
		settleMs: Number(value('FRONT_SETTLE_SECONDS')) * 1000,
	};
}

// The deliveries are the results of real jobs of the simulator, so that the catch-up example can
// read them back from the service. Its rate limit is not what is measured here.
const { client, state, control, simulator, credentials } = useQueueE2e({
	credentials: 'faults e2e',
	resetEachTest: false,
}) as {
	client: N8nClient;
	state: SuiteState & { queue: QueueState };
	control: QueueControl;
} & Omit<ReturnType<typeof useQueueE2e>, 'client' | 'state' | 'control'>;
let twin: TwinRecord | undefined;
const report: Record<string, unknown> = {};

/**
 * Where "Handle Results" posts each item it handles: the user's own side effect (a sheet, a
 * database), counted here, since an execution that crashed while n8n's database was away may have
 * handled its job and saved nothing of it.
 */
const handledBodies: string[] = [];
let sink: Server;
let sinkUrl: string;
/** Where the simulator sends its own callbacks: the test delivers each job itself, as the service. */
let serviceSinkUrl: string;
/** The example's Data Table, a row per job as the submitting workflow keeps it. */
let jobsTableId: string;

beforeAll(async () => {
	twin = state.queue.twin;
	simulator.configure({ rateLimit: { apiKey: null } });
	sink = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		req.on('end', () => {
			if (req.url === '/handled') handledBodies.push(body);
			res.end('{}');
		});
	});
	await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
	const sinkBase = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
	sinkUrl = `${sinkBase}/handled`;
	serviceSinkUrl = `${sinkBase}/service`;
	const table =
		(await findDataTable(client, JOBS_TABLE)) ??
		(await client.api<{ id: string }>('POST', '/data-tables', {
			name: JOBS_TABLE,
			columns: [
				{ name: 'request_id', type: 'string' },
				{ name: 'handled', type: 'boolean' },
			],
		}));
	jobsTableId = table.id;
}, 600_000);

afterAll(async () => {
	// A run that failed before its last test leaves the twin to global teardown.
	await new Promise((resolve) => sink?.close(resolve));
	const file = path.join(artifactsDir, 'queue', 'faults.json');
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(report, null, 2));
}, 120_000);

/**
 * The example, published with a trigger URL of its own (its production URL at the front), and its
 * hourly catch-up started by a webhook instead, on every job not handled yet: the test runs it
 * right after the stream, not an hour later.
 */
async function publishExample(
	name: string,
): Promise<{ workflowId: string; url: string; catchUpPath: string }> {
	const example = loadExamples().find((e) => e.file === EXAMPLE);
	if (!example) throw new Error(`examples/${EXAMPLE} is missing`);
	const workflow = prepareExample(example.workflow, { credentials, n8nUrl: state.queue.frontUrl });
	const trigger = workflow.nodes.find((node) => node.name === TRIGGER)!;
	trigger.webhookId = randomUUID();
	const catchUpPath = `faults-catch-up-${randomUUID()}`;
	const hourly = workflow.nodes.findIndex((node) => node.name === CATCH_UP_TRIGGER);
	workflow.nodes[hourly] = {
		...webhookNode(catchUpPath, { respond: 'onReceived' }),
		name: CATCH_UP_TRIGGER,
	};
	const source = workflow.nodes.find((node) => node.name === CATCH_UP_SOURCE)!;
	const filters = source.parameters.filters as { conditions: Array<{ keyName: string }> };
	filters.conditions = filters.conditions.filter((condition) => condition.keyName !== 'createdAt');
	expect(filters.conditions).toHaveLength(1);
	const handle = workflow.nodes.find((node) => node.name === HANDLED)!;
	Object.assign(handle, {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: sinkUrl,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify($json) }}',
			options: {},
		},
	});
	const { id } = await client.createWorkflow({ ...workflow, name });
	await client.activate(id);
	const url = `${state.queue.frontUrl}/webhook/${trigger.webhookId}/callback`;
	// Registered a moment after activation: the trigger's own 400 to an empty body says it is.
	const deadline = Date.now() + 20_000;
	for (;;) {
		const res = await fetch(url, { method: 'POST' });
		await res.arrayBuffer();
		if (res.status === 400) break;
		if (Date.now() > deadline) throw new Error(`${url} not registered (${res.status})`);
		await sleep(200);
	}
	return { workflowId: id, url, catchUpPath };
}

type Envelope = Record<string, unknown> & { request_id: string; status: string };

const scraperUrl = () => simulator.urls.socialScraperUrl;
const apiKey = () => ({ 'x-api-key': simulator.config.apiKey });

/** A post scrape the simulator ran to its end, its result envelope as the service delivers it. */
async function completedJob(tag: string, n: number): Promise<Envelope> {
	const submitted = await fetch(`${scraperUrl()}/v1/scrape`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...apiKey() },
		body: JSON.stringify({
			url: `https://social.example.com/faults/${n}`,
			callback_url: serviceSinkUrl,
			external_identifier: `fault-${tag}-${n}`,
		}),
	});
	const { request_id } = (await submitted.json()) as { request_id: string };
	await client.api('POST', `/data-tables/${jobsTableId}/rows`, {
		data: [{ request_id, handled: false }],
		returnType: 'count',
	});
	const deadline = Date.now() + 30_000;
	for (;;) {
		const res = await fetch(`${scraperUrl()}/v1/scrape/${request_id}`, { headers: apiKey() });
		const envelope = (await res.json()) as Envelope;
		if (envelope.status === 'completed') return envelope;
		if (Date.now() > deadline)
			throw new Error(`job ${request_id} not completed: ${envelope.status}`);
		await sleep(50);
	}
}

/** The jobs of one stream by delivery id (`fault-<tag>-<n>`), made ahead for its first part. */
class Jobs {
	private readonly made = new Map<number, Promise<Envelope>>();
	constructor(readonly tag: string) {}

	async prepare(count: number): Promise<void> {
		for (let n = 0; n < count; n += SENDERS) {
			await Promise.all(
				Array.from({ length: Math.min(SENDERS, count - n) }, (_, i) => this.get(n + i)),
			);
		}
	}

	get(n: number): Promise<Envelope> {
		if (!this.made.has(n)) this.made.set(n, completedJob(this.tag, n));
		return this.made.get(n)!;
	}
}

/** One delivery, as the service sends it: its answer's status, 0 when no answer came. */
async function deliver(url: string, jobs: Jobs, n: number): Promise<number> {
	const envelope = await jobs.get(n);
	try {
		return (await postCallback(url, envelope, POST_TIMEOUT_MS)).status;
	} catch (error) {
		noAnswers.push(String((error as Error).cause ?? (error as Error).message));
		return 0;
	}
}

/** Why n8n refused to retry an execution, for the report. */
const refusedRetries: string[] = [];

/** Why a delivery got no answer (status 0), for the report. */
const noAnswers: string[] = [];

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * A stream of deliveries, SENDERS at a time, while `fault` runs: at least DELIVERIES, and on until
 * the fault is over, so that every step of it meets deliveries; past DELIVERIES, one sender every
 * TRAILING_GAP_MS (the documented update lasts minutes: at full rate it reached the stream's bound,
 * 1,000 executions that CI's two CPUs ran beside the rest of the suite, and stopped before the
 * update was over). Then each delivery answered otherwise than 2xx is sent again (the service's
 * retry) until it is, at most three more times.
 */
type Fault = (accepted: () => number, mark: (event: string) => void) => Promise<void>;

async function streamThrough(
	url: string,
	jobs: Jobs,
	fault: Fault,
): Promise<{
	first: Map<string, number>;
	resent: Map<string, number[]>;
	timelineMs: Record<string, number>;
	otherwiseAtMs: number[];
}> {
	const first = new Map<string, number>();
	const otherwiseAtMs: number[] = [];
	const timelineMs: Record<string, number> = {};
	let accepted = 0;
	let faultOver = false;
	const started = Date.now();
	const mark = (event: string) => (timelineMs[event] = Date.now() - started);
	const faultDone = fault(() => accepted, mark).finally(() => {
		faultOver = true;
		mark('fault over');
	});
	let next = 0;
	const lane = async (_: unknown, index: number) => {
		while (next < DELIVERIES || (!faultOver && index === 0)) {
			// Bounded: a fault that never ends stops the stream at five times its size.
			if (next >= DELIVERIES * 5) break;
			if (next >= DELIVERIES) await sleep(TRAILING_GAP_MS);
			const n = next++;
			const requestId = `fault-${jobs.tag}-${n}`;
			const status = await deliver(url, jobs, n);
			first.set(requestId, status);
			if (is2xx(status)) accepted++;
			else otherwiseAtMs.push(Date.now() - started);
		}
	};
	await Promise.all([faultDone, ...Array.from({ length: SENDERS }, lane)]);
	mark('stream over');
	const resent = new Map<string, number[]>();
	for (const [requestId, status] of first) {
		if (is2xx(status)) continue;
		const answers: number[] = [];
		for (let attempt = 0; attempt < 3 && !answers.some(is2xx); attempt++) {
			answers.push(await deliver(url, jobs, Number(requestId.split('-').at(-1))));
		}
		resent.set(requestId, answers);
	}
	return { first, resent, timelineMs, otherwiseAtMs };
}

/**
 * Waits (bounded) until the workflow's executions stop changing (their count by status the same
 * over three reads, 2 s apart) with at least `acknowledged` of them, then reads them all.
 */
async function settled(workflowId: string, acknowledged: number): Promise<Execution[]> {
	const deadline = Date.now() + SETTLE_TIMEOUT_MS;
	let last = '';
	let sameReads = 0;
	for (;;) {
		const executions = await allExecutions(client, workflowId);
		const counts = JSON.stringify(countBy(executions.map((e) => e.status).sort()));
		sameReads = counts === last ? sameReads + 1 : 0;
		last = counts;
		const ended = executions.filter((e) => !['new', 'running'].includes(e.status)).length;
		if ((sameReads >= 2 && ended >= acknowledged) || Date.now() > deadline) {
			return await allExecutions(client, workflowId, { includeData: true });
		}
		await sleep(2000);
	}
}

/**
 * An execution n8n saved but could not run or finish (its database or Redis gone meanwhile) stays
 * "new" or "running" until main's queue recovery finds no job for it and marks it crashed
 * (n8n's ScalingService.recoverFromQueue, every N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL minutes:
 * deploy/n8n.env sets 1). Waits (bounded) for that.
 */
async function danglingMarkedCrashed(workflowId: string): Promise<number> {
	const dangling = async () =>
		(await allExecutions(client, workflowId)).filter((e) => ['new', 'running'].includes(e.status))
			.length;
	const found = await dangling();
	const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
	while (found > 0 && (await dangling()) > 0 && Date.now() < deadline) await sleep(5000);
	return found;
}

const idsIn = (value: unknown, tag: string) => [
	...new Set(JSON.stringify(value ?? {}).match(new RegExp(`fault-${tag}-\\d+`, 'g')) ?? []),
];

function countBy(values: Array<string | number>): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
	return counts;
}

/**
 * docs/production.md's way back for an execution n8n failed or crashed after answering its
 * delivery "received": its public API's retry (POST /executions/{id}/retry); Remove Duplicates
 * keeps a job whose delivery also came again from being handled twice. Gives the ids retried.
 */
async function retryFailed(workflowId: string): Promise<string[]> {
	const failed = (await allExecutions(client, workflowId)).filter((e) =>
		['error', 'crashed'].includes(e.status),
	);
	const retried: string[] = [];
	for (const [id, outcome] of await retryEach(client, failed)) {
		// n8n refuses some (an execution saved without its data); what is then lost shows below.
		if ('refused' in outcome) refusedRetries.push(outcome.refused);
		else retried.push(id);
	}
	return retried;
}

/**
 * docs/production.md's way back for a delivery n8n lost after answering it: the example's catch-up,
 * reading from the service every job whose row is not marked handled. Gives the jobs it read.
 */
async function catchUp(workflowId: string, catchUpPath: string): Promise<number> {
	const isCatchUp = (e: Execution) => Boolean(e.data?.resultData.runData?.[CATCH_UP_TRIGGER]);
	const before = new Set((await allExecutions(client, workflowId)).map((e) => e.id));
	expect((await client.callWebhook(catchUpPath, {})).status).toBe(200);
	const deadline = Date.now() + SETTLE_TIMEOUT_MS;
	for (;;) {
		const runs = (await allExecutions(client, workflowId, { includeData: true })).filter(
			(e) => !before.has(e.id) && isCatchUp(e),
		);
		const run = runs.find((e) => !['new', 'running'].includes(e.status));
		if (run) {
			expect({ status: run.status, error: run.data?.resultData.error?.message }).toEqual({
				status: 'success',
				error: undefined,
			});
			return run.data?.resultData.runData['Get Results']?.[0]?.data?.main?.[0]?.length ?? 0;
		}
		if (Date.now() > deadline) throw new Error('the catch-up did not end');
		await sleep(1000);
	}
}

/** A process killed once a quarter of the stream is accepted, and started again 3 s later. */
const killedAndStartedAgain =
	(kill: () => Promise<unknown>, start: () => Promise<unknown>): Fault =>
	async (accepted, mark) => {
		await aQuarterAccepted(accepted);
		await kill();
		mark('killed');
		await sleep(3_000);
		await start();
		mark('started again');
	};

/** Runs one fault during a stream and reports its figures; asserts that nothing was lost. */
async function survives(name: string, fault: Fault): Promise<Record<string, unknown>> {
	const tag = randomUUID().slice(0, 8);
	const { workflowId, url, catchUpPath } = await publishExample(`faults: ${name}`);
	const jobs = new Jobs(tag);
	await jobs.prepare(DELIVERIES);
	const { first, resent, timelineMs, otherwiseAtMs } = await streamThrough(url, jobs, fault);
	const acknowledged = [...first].filter(([, status]) => is2xx(status)).map(([id]) => id);
	const everAcknowledged = new Set([
		...acknowledged,
		...[...resent].filter(([, answers]) => answers.some(is2xx)).map(([id]) => id),
	]);
	let executions = await settled(workflowId, everAcknowledged.size);
	const beforeRetry = executions;
	const statusesBeforeRetry = countBy(executions.map((e) => e.status));
	const markedCrashed = await danglingMarkedCrashed(workflowId);
	const retried = await retryFailed(workflowId);
	if (retried.length > 0) executions = await settled(workflowId, everAcknowledged.size);
	const succeededFor = new Map<string, number>();
	for (const execution of executions) {
		if (execution.status !== 'success') continue;
		const runData = execution.data?.resultData.runData ?? {};
		for (const id of idsIn(runData[TRIGGER], tag)) {
			succeededFor.set(id, (succeededFor.get(id) ?? 0) + 1);
		}
	}
	const handled = () => {
		const counts = new Map<string, number>();
		for (const body of handledBodies) {
			for (const id of idsIn(body, tag)) counts.set(id, (counts.get(id) ?? 0) + 1);
		}
		return counts;
	};
	const handledBeforeCatchUp = handled();
	const readAgain = await catchUp(workflowId, catchUpPath);
	const handledFor = handled();
	const statuses = countBy(executions.map((e) => e.status));
	const figures = {
		deliveries: first.size,
		answered2xx: acknowledged.length,
		answeredOtherwise: countBy([...first.values()].filter((s) => !is2xx(s))),
		sentAgain: resent.size,
		executions: executions.length,
		statusesBeforeRetry,
		markedCrashed,
		retried: retried.length,
		refusedRetries: countBy(refusedRetries.splice(0)),
		statuses,
		succeeded: statuses.success ?? 0,
		crashed: statuses.crashed ?? 0,
		// Jobs that started more than one successful execution before the catch-up, and jobs handled
		// more than once in the end.
		executionsTwice: [...succeededFor.values()].filter((count) => count > 1).length,
		handledTwice: [...handledFor.values()].filter((count) => count > 1).length,
		// The example's catch-up: the jobs it read again from the service, and those it brought back
		// (acknowledged, not handled before it).
		caughtUp: {
			readAgain,
			brought: [...everAcknowledged].filter(
				(id) => !handledBeforeCatchUp.has(id) && handledFor.has(id),
			).length,
		},
		noAnswers: countBy(noAnswers.splice(0)),
		// Why what did not succeed, retries included, failed.
		failures: countBy(
			executions
				.filter((e) => e.status !== 'success')
				.map((e) => `${e.status}: ${e.data?.resultData.error?.message ?? 'no error saved'}`),
		),
		timelineMs,
		// When the deliveries answered otherwise than 2xx were answered: first, middle, last.
		otherwiseAtMs: [0, 0.5, 1].map(
			(q) => otherwiseAtMs[Math.floor(q * (otherwiseAtMs.length - 1))],
		),
	};
	// n8n's rule, not this stack's: a job its worker holds when it exits is failed as stalled, never
	// run again (Bull's maxStalledCount, 0 in n8n's scaling service), and a retry through the public
	// API keeps that error for an execution no node ran (execution.service.js deletes it only after
	// a last node). Seen once in the documented update: a worker took a job after its SIGTERM, then
	// exited without running it. Shown in CI's summary, and in docs/production.md.
	const isStalled = (e: Execution) =>
		/stalled more than maxStalledCount|processed too many times/.test(
			e.data?.resultData.error?.message ?? '',
		);
	const stalledOnly = (id: string) => {
		// Anywhere in its data: one failed before it ran holds the trigger's item in its stack only.
		const ran = executions.filter((e) => idsIn(e.data, tag).includes(id));
		return ran.length > 0 && ran.every(isStalled);
	};
	// Or in no execution at all. When n8n fails a job after its delivery was answered (stalled, or a
	// worker's Redis command answered "LOADING" while Redis restarted), it saves the execution with
	// its error only (workflow-runner.js, processError: `runData: {}`, no stack), so the delivery is
	// gone from n8n and a retry runs nothing. Seen in CI (a stream of 100, Redis restarted). Such
	// deliveries count as n8n's loss up to the number of failed executions that hold none.
	const failedWithoutItem = beforeRetry.filter(
		(e) => ['error', 'crashed'].includes(e.status) && idsIn(e.data, tag).length === 0,
	).length;
	const inNoExecution = [...everAcknowledged].filter(
		(id) => !executions.some((e) => idsIn(e.data, tag).includes(id)),
	);
	const lostWithItsData = inNoExecution.length <= failedWithoutItem ? inNoExecution : [];
	const lostByN8n = [
		...[...everAcknowledged].filter((id) => !succeededFor.has(id) && stalledOnly(id)),
		...lostWithItsData,
	];
	// n8n's losses, shown in CI's summary; the catch-up must bring each back (below).
	for (const id of lostByN8n) {
		recordN8nFault(
			lostWithItsData.includes(id)
				? 'n8n: a job failed after its delivery was answered, its saved data replaced by the error (the catch-up read it again)'
				: 'n8n: a job its worker held as it stopped failed as stalled, not run (the catch-up read it again)',
			`${name}: delivery ${id}`,
		);
	}
	// At least once, not exactly once: an execution n8n failed (its error saved with its data or in
	// place of it) may have run Handle Results and not Mark Handled, and the catch-up, or the retry,
	// then handles that job again (docs/results-delivery.md: make the handling safe to repeat). Seen
	// with a worker killed, and in CI with Redis answering "LOADING" to a worker. Only such a job
	// may be handled twice.
	const failedOnce = new Set([
		...lostByN8n,
		...executions.filter((e) => e.status !== 'success').flatMap((e) => idsIn(e.data, tag)),
	]);
	const handledAgain = [...failedOnce].filter((id) => (handledFor.get(id) ?? 0) > 1);
	const figuresWithLosses = {
		...figures,
		lostByN8n: lostByN8n.length,
		handledTwiceAfterFailure: handledAgain.length,
	};
	report[name] = figuresWithLosses;
	console.log(`faults, ${name}: ${JSON.stringify(figuresWithLosses)}`);

	const lost = [...everAcknowledged].filter((id) => !handledFor.has(id));
	const notHandled = [...first.keys()].filter((id) => !handledFor.has(id));
	expect({ lost, notHandled }).toEqual({ lost: [], notHandled: [] });
	// Remove Duplicates is not atomic (docs/results-delivery.md#repeats-and-re-syncs): a job whose
	// delivery came twice, close together, may pass it twice; one delivered once never does. The
	// catch-up reads again only jobs not marked handled.
	const handledTwiceOnce = [...handledFor]
		.filter(([id, count]) => count > 1 && !resent.has(id) && !handledAgain.includes(id))
		.map(([id]) => id);
	expect(handledTwiceOnce).toEqual([]);
	expect(everAcknowledged.size).toBe(first.size);
	// The catch-up read from the service what was not handled, and nothing else but what n8n failed
	// between handling and marking.
	const notHandledBefore = [...first.keys()].filter((id) => !handledBeforeCatchUp.has(id));
	const handledNotMarked = [...failedOnce].filter((id) => handledBeforeCatchUp.has(id));
	expect(readAgain).toBeGreaterThanOrEqual(notHandledBefore.length);
	expect(readAgain).toBeLessThanOrEqual(notHandledBefore.length + handledNotMarked.length);
	// What did not succeed holds only deliveries whose sender was not told "received" (and whose
	// retry then succeeded): a process killed between saving an execution and queueing it.
	const refusedFirst = new Set([...first].filter(([, status]) => !is2xx(status)).map(([id]) => id));
	const leftovers = executions.filter(
		(e) =>
			e.status !== 'success' &&
			!retried.includes(e.id) &&
			!(e.retryOf && retried.includes(e.retryOf)) &&
			!idsIn(e.data, tag).some((id) => lostByN8n.includes(id)),
	);
	expect(leftovers.length).toBeLessThanOrEqual(refusedFirst.size);
	expect(
		leftovers.flatMap((e) => idsIn(e.data, tag)).filter((id) => !refusedFirst.has(id)),
	).toEqual([]);
	return figuresWithLosses;
}

/** Each fault strikes once a quarter of the stream was answered 2xx (or after a minute). */
async function aQuarterAccepted(accepted: () => number): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (accepted() < DELIVERIES / 4 && Date.now() < deadline) await sleep(20);
}

describe(`the production stack loses no acknowledged delivery (streams of ${DELIVERIES})`, () => {
	// n8n's session cookie is secure by default (deploy/compose.yaml keeps it): a browser signs in
	// over http only on 127.0.0.1 or localhost, as docs/production.md says.
	it("signs a browser in through the front as shipped, with n8n's secure session cookie", async () => {
		const browser = await launchBrowser();
		try {
			const { page, context } = browser;
			await signIn(page, { n8nUrl: state.queue.frontUrl, owner: state.owner });
			const session = (await context.cookies(state.queue.frontUrl)).find(
				(c) => c.name === 'n8n-auth',
			);
			expect({ secure: session?.secure, httpOnly: session?.httpOnly }).toEqual({
				secure: true,
				httpOnly: true,
			});
			// The browser sends it back, with the browser id the editor keeps beside it (n8n ties
			// the session to it): n8n knows who asks.
			const signedInAs = await page.evaluate(async () => {
				const res = await fetch('/rest/login', {
					headers: { 'browser-id': localStorage.getItem('n8n-browserId') ?? '' },
				});
				return res.ok ? ((await res.json()) as { data: { email: string } }).data.email : res.status;
			});
			expect(signedInAs).toBe(state.owner.email);
		} finally {
			await browser.close();
		}
	}, 180_000);

	it('survives a webhook process killed (SIGKILL) and started again 3 s later', async () => {
		const figures = await survives(
			'webhook process killed',
			killedAndStartedAgain(
				() => control.killWebhook(0),
				() => control.startWebhook(0),
			),
		);
		expect(figures.deliveries).toBeGreaterThanOrEqual(DELIVERIES);
	}, 900_000);

	it("survives a worker killed (SIGKILL) and started again 3 s later: what n8n fails of its jobs, the example's hourly catch-up reads again from the service and handles", async () => {
		const figures = await survives(
			'worker killed',
			killedAndStartedAgain(
				() => control.killWorker(0),
				() => control.startWorker(0),
			),
		);
		expect(figures.deliveries).toBeGreaterThanOrEqual(DELIVERIES);
		// Every delivery is answered: the webhook processes queue it whatever the workers do.
		expect(figures.answeredOtherwise).toEqual({});
	}, 900_000);

	it("survives Redis restarted (3 s down) on the shipped settings (deploy/compose.yaml's append-only file)", async () => {
		const figures = await survives('Redis restarted', async (accepted, mark) => {
			await aQuarterAccepted(accepted);
			await control.restartRedis(3_000);
			mark('started again');
		});
		expect(figures.deliveries).toBeGreaterThanOrEqual(DELIVERIES);
		expect(figures.executionsTwice).toBe(0);
	}, 900_000);

	it('survives PostgreSQL restarted the documented way (deploy/restart-postgres.sh: the front closed until the open executions end, opened once every n8n process is ready again)', async () => {
		const figures = await survives('PostgreSQL restarted', async (accepted, mark) => {
			await aQuarterAccepted(accepted);
			await control.restartPostgres(3_000);
			mark('front open again');
		});
		expect(figures.deliveries).toBeGreaterThanOrEqual(DELIVERIES);
		// Undocumented, under deliveries, a restart left executions crashed and handled jobs twice.
		expect({ crashed: figures.crashed, handledTwice: figures.handledTwice }).toEqual({
			crashed: 0,
			handledTwice: 0,
		});
	}, 900_000);

	it("survives the documented update (deploy/update.sh's order and grace): every n8n process restarted one at a time, with no delivery refused", async () => {
		const update = documentedUpdate();
		expect(update.order).toEqual(['main', 'webhook', 'webhook1', 'worker0', 'worker1']);
		expect(update.graceMs).toBeGreaterThan(30_000);
		const figures = await survives('documented update', async (accepted, mark) => {
			await aQuarterAccepted(accepted);
			for (const name of update.order) {
				await control.restart(name, update.graceMs);
				mark(`${name} restarted`);
				await sleep(update.settleMs);
			}
		});
		// The front takes a stopping webhook process out and sends its connections to the other.
		expect(figures.answeredOtherwise).toEqual({});
		expect(figures.executionsTwice).toBe(0);
	}, 900_000);

	it('then Ctrl-C stops PostgreSQL, Redis, the front and every n8n process, and removes their folders', async () => {
		const { pid, tmp } = twin!;
		const running = descendantsOf(pid);
		for (const program of ['postgres', 'redis-server', 'haproxy', 'n8n/bin/n8n']) {
			expect({ program, running: running.some((p) => p.command.includes(program)) }).toEqual({
				program,
				running: true,
			});
		}
		expect(readdirSync(tmp).filter((entry) => entry.startsWith('n8n-')).length).toBeGreaterThan(0);
		const all = [...twin!.started, ...running];

		process.kill(-pid, 'SIGINT');
		// npm ends by the signal it was sent once its script has exited (0).
		const exitDeadline = Date.now() + 60_000;
		while (twinExit(twin!) === undefined && Date.now() < exitDeadline) await sleep(500);
		expect(twinExit(twin!)).toBe('SIGINT');
		const deadline = Date.now() + 60_000;
		while (stillRunning(all).length > 0 && Date.now() < deadline) await sleep(500);
		expect(stillRunning(all)).toEqual([]);
		// Left by design, as by any n8n or tsx on the machine: tsx's and Node's compile caches, and
		// n8n's folder for Data Table uploads (n8n creates it in the temporary folder at start).
		const shared = (entry: string) =>
			entry.startsWith('tsx-') || ['node-compile-cache', 'n8nDataTableUploads'].includes(entry);
		expect(readdirSync(tmp).filter((entry) => !shared(entry))).toEqual([]);
		expect(twinOutput(twin!)).toContain(
			'stopping the front, n8n, Redis, PostgreSQL and the simulator',
		);
	}, 180_000);
});
