import { randomUUID } from 'node:crypto';

import { Agent } from 'undici';

import type { Simulator } from '../../../simulator/server';
import type { N8nClient, WorkflowNode } from './client';
import { baseNode, profileAddResumingHere, webhookNode, workflowNode } from './workflows';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const UNFINISHED = ['new', 'running', 'waiting'];

interface ExecutionSummary {
	id: string;
	status: string;
	stoppedAt?: string | null;
}

/** Every execution of a workflow, through the public API's cursor pagination. */
export async function listAllExecutions(
	client: N8nClient,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	let cursor: string | undefined;
	do {
		const query = new URLSearchParams({ workflowId, limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const page = await client.api<{ data: ExecutionSummary[]; nextCursor?: string | null }>(
			'GET',
			`/executions?${query}`,
		);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

let nextJobId = 7_000_000;

/** A review job callback as the service delivers it (three reviews); each one a new job. */
export function reviewJobDelivery(): { job_id: number } & Record<string, unknown> {
	const jobId = nextJobId++;
	return {
		success: true,
		status: 200,
		job_id: jobId,
		source_url: `https://www.example.com/biz/burst-${jobId}`,
		source_name: 'example',
		external_identifier: `burst-${jobId}`,
		meta_data: '{}',
		review_count: 3,
		average_rating: 4.3,
		crawl_status: 'complete',
		percentage_complete: 100,
		result_count: 3,
		credits_used: 3,
		reviews: [1, 2, 3].map((n) => ({
			id: `${jobId}-${n}`,
			name: 'A. Reviewer',
			date: '2026-11-01',
			rating_value: n + 2,
			review_text: 'Great pizza, friendly staff.',
		})),
	};
}

/** The Scraping Callback Trigger as a user drops it in: no options. */
export function callbackTriggerNode(packageName: string): WorkflowNode {
	const type = `${packageName}.scrapingCallbackTrigger`;
	return workflowNode(type, 'Scraping Callback Trigger', {}, { webhookId: randomUUID() });
}

/** n8n's own Webhook node on its fast path: static parameters, answering on receipt. */
export function fastPathWebhookNode(): { node: WorkflowNode; path: string } {
	const path = `burst-${randomUUID()}`;
	return { node: webhookNode(path, { respond: 'onReceived' }), path };
}

/**
 * The receiving pattern on n8n's fast path (docs/nodes/scraping-delivery.md): n8n's Webhook node,
 * answering on receipt, then Scraping Delivery reading each delivery as the trigger would.
 */
export function fastPathDeliveryNodes(packageName: string): {
	nodes: WorkflowNode[];
	path: string;
	reader: string;
} {
	const { node, path } = fastPathWebhookNode();
	const reader = 'Scraping Delivery';
	const delivery = workflowNode(`${packageName}.scrapingDelivery`, reader, {
		resource: 'delivery',
		operation: 'read',
		options: {},
	});
	return { nodes: [node, delivery], path, reader };
}

export interface BurstOutcome {
	sent: number;
	/** Answered 200 before the sender's patience ran out. */
	answeredInTime: number;
	/** Answered with another status before the patience ran out. */
	refused: number;
	/** Given up on by the sender (no answer within the patience). */
	gaveUp: number;
	/** Other failures of the request (connection refused or reset). */
	failed: number;
	/** From the burst to the last answer within the patience. */
	lastAnswerMs: number | null;
}

/**
 * `bodies` POSTed at one moment, each sender giving up after `patienceMs` as a webhook sender does.
 * Each request has a connection of its own (no pooling limit), as separate senders would.
 */
export async function sendBurst(
	url: string,
	bodies: unknown[],
	patienceMs: number,
	/** Receives the text of each answer given in time. */
	onAnswer?: (text: string) => void,
): Promise<BurstOutcome> {
	return await sendEachAtOnce(
		bodies.map((body) => ({ url, body })),
		patienceMs,
		onAnswer,
	);
}

/** Like `sendBurst`, each body to its own URL (resume calls: one URL per waiting execution). */
export async function sendEachAtOnce(
	requests: Array<{ url: string; body: unknown }>,
	patienceMs: number,
	onAnswer?: (text: string) => void,
): Promise<BurstOutcome> {
	const dispatcher = new Agent({ connections: null, pipelining: 0, connect: { timeout: 60_000 } });
	const texts = requests.map(({ url, body }) => ({ url, text: JSON.stringify(body) }));
	const started = performance.now();
	const outcome: BurstOutcome = {
		sent: requests.length,
		answeredInTime: 0,
		refused: 0,
		gaveUp: 0,
		failed: 0,
		lastAnswerMs: null,
	};
	await Promise.all(
		texts.map(async ({ url, text }) => {
			try {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: text,
					signal: AbortSignal.timeout(patienceMs),
					dispatcher,
				} as RequestInit);
				const answer = await response.text();
				onAnswer?.(answer);
				if (response.status === 200) {
					outcome.answeredInTime++;
					outcome.lastAnswerMs = performance.now() - started;
				} else outcome.refused++;
			} catch (error) {
				if ((error as Error).name === 'TimeoutError') outcome.gaveUp++;
				else outcome.failed++;
			}
		}),
	);
	await dispatcher.destroy().catch(() => undefined);
	return outcome;
}

export interface StartedExecutions {
	started: number;
	/** From `since` to the last execution's end (or the last count change, when unfinished). */
	lastMs: number;
}

/**
 * Counts a workflow's executions until every one has ended and either `expected` have started or
 * the count has held still for `quietMs`, or `limitMs` has passed: an execution that has not
 * started by then never will.
 */
export async function countStarted(
	client: N8nClient,
	workflowId: string,
	since: number,
	expected: number,
	quietMs = 15_000,
	limitMs = 600_000,
): Promise<StartedExecutions> {
	const deadline = Date.now() + limitMs;
	let last = -1;
	let changedAt = Date.now();
	for (;;) {
		const executions = await listAllExecutions(client, workflowId);
		if (executions.length !== last) {
			last = executions.length;
			changedAt = Date.now();
		}
		const unfinished = executions.some((execution) => UNFINISHED.includes(execution.status));
		const quiet = Date.now() - changedAt >= quietMs;
		if ((!unfinished && (quiet || executions.length >= expected)) || Date.now() > deadline) {
			return { started: executions.length, lastMs: changedAt - since };
		}
		await sleep(1_000);
	}
}

/**
 * One delivery once the webhook is registered (404 until then), and its execution awaited: the
 * receiver is warm and the workflow's execution count is known before a burst.
 */
export async function warmUp(client: N8nClient, workflowId: string, url: string): Promise<number> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(reviewJobDelivery()),
		});
		await response.arrayBuffer();
		if (response.status === 200) break;
		if (response.status !== 404 || Date.now() > deadline) {
			throw new Error(`warm-up delivery to ${url}: HTTP ${response.status}`);
		}
		await sleep(200);
	}
	for (;;) {
		const executions = await listAllExecutions(client, workflowId);
		if (executions.length > 0 && executions.every((e) => !UNFINISHED.includes(e.status))) {
			return executions.length;
		}
		if (Date.now() > deadline) throw new Error(`the warm-up delivery's execution did not end`);
		await sleep(200);
	}
}

/** Who puts an execution to wait for its job: the package's node, or n8n's documented pattern. */
export type Resumer = 'waitForCompletion' | 'waitNode';

export const RESUMER_LABEL: Record<Resumer, string> = {
	waitForCompletion: 'Review Scraper, Wait for Completion',
	waitNode: "HTTP Request → n8n's Wait node",
};

/**
 * The workflow after its start webhook: Profile → Add with Wait for Completion, or n8n's own
 * pattern (HTTP Request sending `$execution.resumeUrl` as the callback, then the Wait node "On
 * Webhook Call"). Both submit one profile, its URL and review count from the start call's body.
 */
export function waitingNodes(
	resumer: Resumer,
	packageName: string,
	simulatorBaseUrl: string,
	credential: { id: string; name: string },
): WorkflowNode[] {
	if (resumer === 'waitForCompletion') {
		const parameters = {
			resource: 'profile',
			operation: 'add',
			url: '={{ $json.body.url }}',
			additionalFields: { blocks: '={{ $json.body.blocks }}' },
			waitForCompletion: true,
		};
		return [
			workflowNode(`${packageName}.reviewScraper`, 'Review Scraper', parameters, {
				credentials: { reviewScraperApi: credential },
			}),
		];
	}
	return [
		profileAddResumingHere(credential, simulatorBaseUrl),
		{
			...baseNode('wait', 'Wait', 1.1, { resume: 'webhook', httpMethod: 'POST', options: {} }),
			webhookId: randomUUID(),
		},
	];
}

export interface HeldCallback {
	url: string;
	body: unknown;
	/** The waiting execution the URL resumes. */
	executionId: string;
}

export interface WaitingBatch {
	/** Execution ids, each waiting for its job. */
	waiting: string[];
	/** Each job's callback as the service would send it, kept back for the caller to send. */
	callbacks: HeldCallback[];
}

async function inParallel(count: number, limit: number, work: (index: number) => Promise<void>) {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, count) }, async () => {
			while (next < count) await work(next++);
		}),
	);
}

/**
 * `count` executions started through `startUrl` (a Webhook node answering on receipt, just
 * activated) and left waiting for their jobs; then every job completed at one moment with the simulator's callbacks
 * kept back instead of sent, so that the caller sends them as the service would, at once and with
 * its own patience. The simulator is reset before and after.
 */
export async function waitingWithHeldCallbacks(
	client: N8nClient,
	simulator: Simulator,
	workflowId: string,
	startUrl: string,
	count: number,
	tag: string,
): Promise<WaitingBatch> {
	simulator.reset();
	simulator.configure({ holdCompletion: true, rateLimit: { review: null } });
	const earlier = new Set((await listAllExecutions(client, workflowId)).map((e) => e.id));
	const start = async (index: number) => {
		const response = await fetch(startUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ url: `https://www.example.com/biz/${tag}-${index}`, blocks: 3 }),
			signal: AbortSignal.timeout(60_000),
		});
		await response.arrayBuffer();
		return response.status;
	};
	// The first start also waits out the moment after activation when n8n answers 404.
	const registered = Date.now() + 30_000;
	for (let status = await start(0); status !== 200; status = await start(0)) {
		if (status !== 404 || Date.now() > registered) throw new Error(`start 0: HTTP ${status}`);
		await sleep(200);
	}
	await inParallel(count - 1, 16, async (index) => {
		const status = await start(index + 1);
		if (status !== 200) throw new Error(`start ${index + 1}: HTTP ${status}`);
	});
	const deadline = Date.now() + 300_000;
	let waiting: string[] = [];
	for (;;) {
		const mine = (await listAllExecutions(client, workflowId)).filter((e) => !earlier.has(e.id));
		waiting = mine.filter((e) => e.status === 'waiting').map((e) => e.id);
		if (waiting.length === count) break;
		if (Date.now() > deadline || mine.some((e) => ['error', 'crashed'].includes(e.status))) {
			throw new Error(`${waiting.length} of ${count} executions waiting (${mine.length} started)`);
		}
		await sleep(500);
	}
	const callbacks: HeldCallback[] = [];
	const deliver = simulator.deliver;
	simulator.deliver = (url, payload) => {
		const executionId = /\/webhook-waiting\/(\d+)/.exec(url)?.[1] ?? '';
		callbacks.push({ url, body: payload, executionId });
	};
	try {
		const released = simulator.releaseHeldJobs();
		if (released !== count) throw new Error(`${released} jobs held for ${count} executions`);
	} finally {
		simulator.deliver = deliver;
		simulator.reset();
	}
	const ids = new Set(waiting);
	if (callbacks.length !== count || !callbacks.every((c) => ids.has(c.executionId))) {
		throw new Error(`${callbacks.length} callbacks for ${count} waiting executions`);
	}
	return { waiting, callbacks };
}

export interface ResumedExecutions {
	/** Executions of the batch that ended after their callback. */
	resumed: string[];
	/** From `since` to the last resumed execution's end. */
	lastMs: number;
}

/**
 * Follows a batch of waiting executions until each has ended or none has ended for `quietMs` (a
 * callback whose request n8n could no longer read leaves its execution waiting), at most `limitMs`.
 */
export async function countResumed(
	client: N8nClient,
	workflowId: string,
	waiting: string[],
	since: number,
	quietMs = 15_000,
	limitMs = 600_000,
): Promise<ResumedExecutions> {
	const batch = new Set(waiting);
	const deadline = Date.now() + limitMs;
	let endedBefore = -1;
	let changedAt = Date.now();
	for (;;) {
		const mine = (await listAllExecutions(client, workflowId)).filter((e) => batch.has(e.id));
		const ended = mine.filter((e) => !UNFINISHED.includes(e.status));
		if (ended.length !== endedBefore) {
			endedBefore = ended.length;
			changedAt = Date.now();
		}
		const running = mine.some((e) => e.status === 'running' || e.status === 'new');
		const quiet = Date.now() - changedAt >= quietMs;
		if (ended.length === batch.size || (quiet && !running) || Date.now() > deadline) {
			const stopped = ended.map((e) => Date.parse(e.stoppedAt ?? '')).filter(Number.isFinite);
			return {
				resumed: ended.map((e) => e.id),
				lastMs: stopped.length ? Math.max(...stopped) - since : 0,
			};
		}
		await sleep(1_000);
	}
}

/** `url` with its origin replaced by `origin`: n8n's resume URL as `WEBHOOK_URL=origin` builds it. */
export const throughOrigin = (url: string, origin: string): string => {
	const { pathname, search } = new URL(url);
	return `${origin.replace(/\/$/, '')}${pathname}${search}`;
};
