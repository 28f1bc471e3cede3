import { randomUUID } from 'node:crypto';

import { Agent } from 'undici';

import type { N8nClient, WorkflowNode } from './client';
import { webhookNode } from './workflows';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const UNFINISHED = ['new', 'running', 'waiting'];

interface ExecutionSummary {
	id: string;
	status: string;
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
	return {
		id: randomUUID(),
		name: 'Scraping Callback Trigger',
		type: `${packageName}.scrapingCallbackTrigger`,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {},
	};
}

/** n8n's own Webhook node on its fast path: static parameters, answering on receipt. */
export function fastPathWebhookNode(): { node: WorkflowNode; path: string } {
	const path = `burst-${randomUUID()}`;
	return { node: webhookNode(path, { respond: 'onReceived' }), path };
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
	const dispatcher = new Agent({ connections: null, pipelining: 0, connect: { timeout: 60_000 } });
	const texts = bodies.map((body) => JSON.stringify(body));
	const started = performance.now();
	const outcome: BurstOutcome = {
		sent: bodies.length,
		answeredInTime: 0,
		refused: 0,
		gaveUp: 0,
		failed: 0,
		lastAnswerMs: null,
	};
	await Promise.all(
		texts.map(async (text) => {
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
