import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Execution, N8nClient } from '../e2e/harness/client';
import { artifactsDir } from '../e2e/harness/paths';
import type { QueueControl } from '../e2e/harness/queue-control';
import type { QueueState, SuiteState } from '../e2e/harness/state';
import { chain } from '../e2e/harness/workflows';
import {
	allExecutions,
	connectQueue,
	postCallback,
	processLogs,
	retryEach,
	sleep,
	socialScrapeCallback,
} from './helpers';

/**
 * 1,000 by default; CI runs 100 (LOSS_TEST_CALLBACKS): at the 14 executions per second n8n ran
 * there, the three passes of 1,000 took 168 s. A multiple of 4: the worker is killed a quarter in.
 */
const CALLBACKS = callbackCount(process.env.LOSS_TEST_CALLBACKS);
const CONCURRENCY = 16;
const POST_TIMEOUT_MS = 30_000;
/** Bounded wait for the queue to drain after the last callback was accepted. */
const SETTLE_TIMEOUT_MS = 150_000;
const TRIGGER = 'Scraping Callback Trigger';

function callbackCount(setting: string | undefined): number {
	if (setting === undefined || setting === '') return 1000;
	const count = Number(setting);
	if (!Number.isInteger(count) || count < 100 || count > 5000 || count % 4 !== 0) {
		throw new Error(`LOSS_TEST_CALLBACKS: a multiple of 4 from 100 to 5000, not "${setting}"`);
	}
	return count;
}

let client: N8nClient;
let state: SuiteState & { queue: QueueState };
let control: QueueControl;
const activated: string[] = [];
const report: Record<string, unknown> = {};
let firstRun:
	| { url: string; workflowId: string; requestIds: string[]; takenBy: Map<string, string> }
	| undefined;

beforeAll(() => {
	({ client, state, control } = connectQueue());
});

afterAll(async () => {
	for (const id of activated) await client.deactivate(id).catch(() => undefined);
	const file = path.join(artifactsDir, 'queue', 'loss.json');
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(report, null, 2));
});

interface Post {
	requestId: string;
	status: number;
	body: unknown;
}

async function triggerWorkflow(name: string): Promise<string> {
	const webhookId = randomUUID();
	const { id } = await client.createWorkflow({
		name,
		...chain([
			{
				id: randomUUID(),
				name: TRIGGER,
				type: 'n8n-nodes-review-scraping.scrapingCallbackTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {},
			},
		]),
	});
	await client.activate(id);
	activated.push(id);
	const url = `${state.webhookUrl}/webhook/${webhookId}/callback`;
	// Registered a moment after activation: wait for the trigger's own 400 to an empty body.
	const deadline = Date.now() + 10_000;
	const probe = async () => {
		const res = await fetch(url, { method: 'POST' });
		await res.arrayBuffer();
		return res.status;
	};
	while ((await probe()) === 404 && Date.now() < deadline) await sleep(200);
	return url;
}

/**
 * Posts every callback once, `CONCURRENCY` at a time, without retrying: a retry could hide a
 * lost request or create a duplicate, and both are what is measured. `onAccepted` sees the count
 * of 200 answers so far; callbacks from `holdBefore.index` on wait for `holdBefore.until()`.
 */
async function postAll(
	url: string | ((requestId: string) => string),
	requestIds: string[],
	onAccepted: (accepted: number) => void = () => undefined,
	holdBefore?: { index: number; until: () => Promise<void> | undefined },
): Promise<Post[]> {
	const posts: Post[] = new Array(requestIds.length);
	let next = 0;
	let accepted = 0;
	const lane = async () => {
		while (next < requestIds.length) {
			const n = next++;
			if (holdBefore && n >= holdBefore.index) await holdBefore.until();
			const requestId = requestIds[n];
			try {
				const { status, text } = await postCallback(
					typeof url === 'string' ? url : url(requestId),
					socialScrapeCallback(requestId, n),
					POST_TIMEOUT_MS,
				);
				let body: unknown = text;
				try {
					body = JSON.parse(text);
				} catch {
					// kept as text
				}
				posts[n] = { requestId, status, body };
				if (status === 200) onAccepted(++accepted);
			} catch (error) {
				posts[n] = { requestId, status: 0, body: String((error as Error).message) };
			}
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, lane));
	return posts;
}

/** Waits (bounded) until no execution of the workflow is queued or running. */
async function settled(workflowId: string, expected: number): Promise<Execution[]> {
	const deadline = Date.now() + SETTLE_TIMEOUT_MS;
	for (;;) {
		const executions = await allExecutions(client, workflowId);
		const open = executions.filter((e) => ['new', 'running'].includes(e.status));
		if ((executions.length >= expected && open.length === 0) || Date.now() > deadline) {
			return await allExecutions(client, workflowId, { includeData: true });
		}
		await sleep(1000);
	}
}

/** The request ids an execution carries, wherever n8n keeps them (run data, or the queued stack). */
function requestIdsOf(execution: Execution, tag: string): string[] {
	const found = JSON.stringify(execution.data ?? {}).match(new RegExp(`loss-${tag}-\\d+`, 'g'));
	return [...new Set(found ?? [])];
}

function countBy<T>(values: T[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
	return counts;
}

/** Executions per request id: what each accepted callback led to. */
function tally(executions: Execution[], tag: string, requestIds: string[]) {
	const byRequest = new Map<string, Execution[]>(requestIds.map((id) => [id, []]));
	const unattributed: string[] = [];
	for (const execution of executions) {
		const ids = requestIdsOf(execution, tag);
		if (ids.length !== 1 || !byRequest.has(ids[0])) unattributed.push(execution.id);
		else byRequest.get(ids[0])!.push(execution);
	}
	const entries = [...byRequest.entries()];
	return {
		missing: entries.filter(([, list]) => list.length === 0).map(([id]) => id),
		duplicated: entries.filter(([, list]) => list.length > 1).map(([id]) => id),
		unattributed,
	};
}

/** Which webhook process (its URL) took each request id's delivery, read from their logs. */
function takenBy(executions: Execution[], tag: string): Map<string, string> {
	const processOf = new Map<string, string>();
	for (const logFile of processLogs('webhook')) {
		// n8n-scale-webhook1-restart1.log: webhook1, restarted once, on the same port.
		const name = /-(webhook\d*)(?:-restart\d+)?\.log$/.exec(logFile)?.[1];
		const url = state.queue.processes.find((p) => p.name === name)?.url;
		if (!url) continue;
		for (const match of readFileSync(logFile, 'utf8').matchAll(/Enqueued execution (\d+) \(/g)) {
			processOf.set(match[1], url);
		}
	}
	const taken = new Map<string, string>();
	for (const execution of executions) {
		const [requestId] = requestIdsOf(execution, tag);
		const processUrl = processOf.get(execution.id);
		if (requestId && processUrl) taken.set(requestId, processUrl);
	}
	return taken;
}

const enqueuedByWebhookProcess = (executionIds: string[]) => {
	const logs = processLogs('webhook').map((file) => readFileSync(file, 'utf8'));
	const enqueued = new Set(
		logs.flatMap((log) => [...log.matchAll(/Enqueued execution (\d+) \(/g)].map((m) => m[1])),
	);
	return executionIds.filter((id) => enqueued.has(id)).length;
};

/** Executions a worker's log shows as started and never finished: what it held when it died. */
function heldBy(logFile: string): string[] {
	const log = readFileSync(logFile, 'utf8');
	const started = [...log.matchAll(/Worker started execution (\d+) \(/g)].map((m) => m[1]);
	const finished = new Set(
		[...log.matchAll(/Worker finished execution (\d+) \(/g)].map((m) => m[1]),
	);
	return started.filter((id) => !finished.has(id));
}

describe(`loss test: ${CALLBACKS} callbacks into a trigger workflow in queue mode`, () => {
	it(
		'every accepted callback yields exactly one successful execution',
		async () => {
			const tag = randomUUID().slice(0, 8);
			const requestIds = Array.from({ length: CALLBACKS }, (_, n) => `loss-${tag}-${n}`);
			const url = await triggerWorkflow('queue loss test');
			const workflowId = activated.at(-1)!;

			const started = Date.now();
			const posts = await postAll(url, requestIds);
			const postedMs = Date.now() - started;
			const executions = await settled(workflowId, CALLBACKS);
			const settledMs = Date.now() - started;
			firstRun = { url, workflowId, requestIds, takenBy: takenBy(executions, tag) };

			const accepted = posts.filter((p) => p.status === 200);
			const { missing, duplicated, unattributed } = tally(executions, tag, requestIds);
			const statuses = countBy(executions.map((e) => e.status));
			report.withoutKill = {
				callbacks: CALLBACKS,
				concurrency: CONCURRENCY,
				accepted: accepted.length,
				answers: countBy(posts.map((p) => p.status)),
				executions: executions.length,
				statuses,
				lost: missing.length,
				duplicates: duplicated.length,
				unattributed: unattributed.length,
				enqueuedByWebhookProcess: enqueuedByWebhookProcess(executions.map((e) => e.id)),
				postedMs,
				settledMs,
				callbacksPerSecond: Math.round((CALLBACKS / postedMs) * 1000),
				executionsPerSecond: Math.round((CALLBACKS / settledMs) * 1000),
			};
			console.log(`loss test without kill: ${JSON.stringify(report.withoutKill)}`);

			expect(accepted).toHaveLength(CALLBACKS);
			expect(new Set(accepted.map((p) => JSON.stringify(p.body)))).toEqual(
				new Set([JSON.stringify({ received: true })]),
			);
			expect({ missing, duplicated, unattributed }).toEqual({
				missing: [],
				duplicated: [],
				unattributed: [],
			});
			expect(statuses).toEqual({ success: CALLBACKS });
			expect(report.withoutKill).toMatchObject({ enqueuedByWebhookProcess: CALLBACKS });
		},
		SETTLE_TIMEOUT_MS + 120_000,
	);

	// The trigger screens a repeat in the webhook process that took the first delivery: n8n 2.41
	// saves a webhook's static data only while it is empty, so the other process does not learn it
	// (Remove Duplicates does: repeats.test.ts, faults.test.ts). Each goes back where it went.
	it(
		`a second delivery of each of the ${CALLBACKS}, to the webhook process that took the first, is acknowledged as a repeat and starts nothing`,
		async () => {
			if (!firstRun) throw new Error('needs the first run of this file');
			const { url, workflowId, requestIds, takenBy } = firstRun;
			expect(takenBy.size).toBe(CALLBACKS);
			const path = new URL(url).pathname;
			const started = Date.now();
			const again = await postAll((requestId) => `${takenBy.get(requestId)}${path}`, requestIds);
			const answers = countBy(again.map((p) => `${p.status} ${JSON.stringify(p.body)}`));
			await sleep(2000);
			const executions = await allExecutions(client, workflowId);
			report.redelivery = {
				answers,
				byProcess: countBy([...takenBy.values()]),
				executionsBefore: CALLBACKS,
				executionsAfter: executions.length,
				ms: Date.now() - started,
			};
			console.log(`redelivery: ${JSON.stringify(report.redelivery)}`);
			expect(answers).toEqual({
				[`200 ${JSON.stringify({ received: true, duplicate: true })}`]: CALLBACKS,
			});
			expect(executions).toHaveLength(CALLBACKS);
		},
		POST_TIMEOUT_MS + 180_000,
	);

	it(
		'with a worker killed (SIGKILL) and restarted mid-run: every callback is still accepted and enqueued once; what the dead worker held is failed by n8n',
		async () => {
			const tag = randomUUID().slice(0, 8);
			const requestIds = Array.from({ length: CALLBACKS }, (_, n) => `loss-${tag}-${n}`);
			const url = await triggerWorkflow('queue loss test, worker killed');
			const workflowId = activated.at(-1)!;
			const victim = 0;
			const timeline: Record<string, number> = {};
			let held: string[] = [];
			let chaos: Promise<void> | undefined;

			const started = Date.now();
			const at = (event: string) => (timeline[event] = Date.now() - started);
			// A quarter in, kill worker 0 as soon as it holds an execution (bounded: 10 s) and restart
			// it at once; callbacks keep coming, and the last quarter waits for the restart, so that
			// the restarted worker takes part whatever the machine's speed.
			const killAndRestart = async (acceptedAtKill: number) => {
				const log = (await control.processes()).find((p) => p.name === `worker${victim}`)!;
				const deadline = Date.now() + 10_000;
				while (heldBy(log.logFile).length === 0 && Date.now() < deadline) await sleep(10);
				await control.killWorker(victim);
				at('killed');
				timeline.acceptedAtKill = acceptedAtKill;
				held = heldBy(log.logFile);
				await control.startWorker(victim);
				at('restarted');
			};
			const posts = await postAll(
				url,
				requestIds,
				(accepted) => {
					if (accepted === CALLBACKS / 4) chaos = killAndRestart(accepted);
				},
				{ index: (CALLBACKS * 3) / 4, until: () => chaos },
			);
			at('posted');
			await chaos;
			const executions = await settled(workflowId, CALLBACKS);
			at('settled');

			const accepted = posts.filter((p) => p.status === 200);
			const { missing, duplicated, unattributed } = tally(executions, tag, requestIds);
			const statuses = countBy(executions.map((e) => e.status));
			const notSuccessful = executions.filter((e) => e.status !== 'success');
			const stalled = executions.filter(
				(e) =>
					e.status === 'error' &&
					/failed to be processed too many times/.test(e.data?.resultData.error?.message ?? ''),
			);
			const processes = await control.processes();
			const restartedLog = processes.find((p) => p.name === `worker${victim}`)!.logFile;
			const ranAfterRestart =
				readFileSync(restartedLog, 'utf8').split('Worker started execution').length - 1;
			report.withWorkerKilled = {
				callbacks: CALLBACKS,
				concurrency: CONCURRENCY,
				workerConcurrency: state.queue.workerConcurrency,
				accepted: accepted.length,
				answers: countBy(posts.map((p) => p.status)),
				executions: executions.length,
				statuses,
				heldByKilledWorkerPerItsLog: held,
				notSuccessful: notSuccessful.map((e) => ({
					id: e.id,
					status: e.status,
					error: e.data?.resultData.error?.message,
				})),
				stalled: stalled.length,
				lost: missing.length,
				duplicates: duplicated.length,
				unattributed: unattributed.length,
				enqueuedByWebhookProcess: enqueuedByWebhookProcess(executions.map((e) => e.id)),
				ranByRestartedWorker: ranAfterRestart,
				timelineMs: timeline,
			};
			console.log(`loss test with a worker killed: ${JSON.stringify(report.withWorkerKilled)}`);

			// The package's part: every callback answered 200 and put exactly one execution on the queue.
			expect(accepted).toHaveLength(CALLBACKS);
			expect(executions).toHaveLength(CALLBACKS);
			expect(report.withWorkerKilled).toMatchObject({ enqueuedByWebhookProcess: CALLBACKS });
			expect(duplicated).toEqual([]);
			// n8n's part, measured: only what the dead worker held fails. Which way it fails is a race
			// inside n8n: Bull's stalled check fails the job (an error, "failed to be processed too
			// many times") or the main process's recovery marks the execution crashed first, with or
			// without its data. An execution without its data is a callback whose payload is gone.
			expect(timeline.killed).toBeLessThan(timeline.posted);
			expect(timeline.restarted).toBeLessThan(timeline.posted);
			expect(ranAfterRestart).toBeGreaterThan(0);
			expect(held.length).toBeGreaterThan(0);
			const failedIds = notSuccessful.map((e) => e.id).sort();
			expect(failedIds.length).toBeGreaterThan(0);
			expect(failedIds.length).toBeLessThanOrEqual(state.queue.workerConcurrency);
			// Its log, read just after the kill, is no exact list either way: it may lack a job taken but
			// not yet logged (a CI run: 4 held per the log, a fifth failed the same way), or show one
			// saved as a success just before the kill but never logged finished (another: 5 held per
			// the log, 4 failed). The failures are the dead worker's, so at most its concurrency, and
			// the log and the failures name at least one execution in common.
			expect(held.filter((id) => failedIds.includes(id))).not.toEqual([]);
			for (const execution of notSuccessful) {
				const stalledError = stalled.some((e) => e.id === execution.id);
				expect({ id: execution.id, status: execution.status }).toEqual({
					id: execution.id,
					status: stalledError ? 'error' : 'crashed',
				});
			}
			expect(unattributed.filter((id) => !failedIds.includes(id))).toEqual([]);
			expect(missing).toHaveLength(unattributed.length);

			// n8n's public API retry of each: it runs the delivery of an execution that kept it, and
			// nothing for one n8n saved with its error only (workflow-runner.js, processError), which
			// is what a dead worker's executions were, 5 of 5 (docs/production.md).
			const retries = Object.fromEntries(await retryEach(client, notSuccessful));
			const retriedRuns = await allExecutions(client, workflowId, { includeData: true });
			const retryRuns = retriedRuns.filter((e) => e.retryOf && failedIds.includes(e.retryOf));
			const ranFor = (e: Execution) =>
				e.data?.resultData.runData?.[TRIGGER] ? requestIdsOf(e, tag) : [];
			report.withWorkerKilled = {
				...(report.withWorkerKilled as object),
				retries,
				retryRuns: retryRuns.map((e) => ({
					id: e.id,
					retryOf: e.retryOf,
					status: e.status,
					error: e.data?.resultData.error?.message,
					lastNodeExecuted: e.data?.resultData.lastNodeExecuted,
					ran: ranFor(e),
				})),
			};
			console.log(`loss test, the retries: ${JSON.stringify(report.withWorkerKilled)}`);
			const withData = notSuccessful.filter((e) => requestIdsOf(e, tag).length === 1);
			expect(retryRuns.flatMap(ranFor).sort()).toEqual(
				withData.flatMap((e) => requestIdsOf(e, tag)).sort(),
			);
		},
		SETTLE_TIMEOUT_MS + 180_000,
	);
});
