import { randomUUID } from 'node:crypto';

import type { N8nClient, WorkflowNode } from '../../test/e2e/harness/client';
import { chain, httpRequestNode, splitOutNode } from '../../test/e2e/harness/workflows';

export const PACKAGE = 'n8n-nodes-review-scraping';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Execution saving for benches. Saving 10,000 or 50,000 items to SQLite would dominate what is
 * measured and is the same n8n code both ways, so successful runs are not saved (n8n deletes them
 * when they end); failed runs are, so a failure is visible. The callback-intake bench keeps them:
 * it counts executions through the API.
 */
export function saveSettings(save: 'none' | 'all'): Record<string, unknown> {
	return {
		executionOrder: 'v1',
		saveDataSuccessExecution: save,
		saveDataErrorExecution: 'all',
		saveExecutionProgress: false,
		saveManualExecutions: false,
	};
}

export function webhookTrigger(
	path: string,
	respond: 'lastNode' | 'onReceived',
	responseData: 'noData' | 'allEntries' | '' = respond === 'lastNode' ? 'noData' : '',
): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: respond, responseData, options: {} },
	};
}

export function packageNode(
	type: string,
	parameters: Record<string, unknown>,
	credentials: Record<string, { id: string; name: string }> = {},
	name = type,
): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: `${PACKAGE}.${type}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials,
	};
}

export { httpRequestNode, splitOutNode };

export interface Deployed {
	id: string;
	url: string;
}

/** Creates and activates `trigger → nodes`, and returns the trigger's production URL. */
export async function deploy(
	client: N8nClient,
	name: string,
	trigger: WorkflowNode,
	nodes: WorkflowNode[],
	save: 'none' | 'all',
	urlPath: string,
): Promise<Deployed> {
	const { id } = await client.createWorkflow({
		name,
		...chain([trigger, ...nodes]),
		settings: saveSettings(save),
	});
	await client.activate(id);
	return { id, url: `${client.baseUrl}/webhook/${urlPath}` };
}

export interface Posted {
	ms: number;
	status: number;
	text: string;
}

export async function post(
	url: string,
	body: unknown,
	timeoutMs = 600_000,
	headers: Record<string, string> = {},
): Promise<Posted> {
	const started = performance.now();
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	const text = await res.text();
	return { ms: performance.now() - started, status: res.status, text };
}

/**
 * n8n answers 503 "Database is not ready!" before it starts anything while its database ping is
 * late (a starved process: CI's quick run meets it beside the end-to-end files); sent again.
 */
const databaseNotReady = (posted: Posted) =>
	posted.status === 503 && posted.text.includes('Database is not ready');

/**
 * Production webhooks register a moment after activation: 404 "not registered" is retried, and
 * a start n8n refused for its database (above).
 */
export async function postWhenRegistered(
	url: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<Posted> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const posted = await post(url, body, undefined, headers);
		if ((posted.status !== 404 && !databaseNotReady(posted)) || Date.now() > deadline) {
			return posted;
		}
		await sleep(200);
	}
}

/** Sent again, for up to `waitMs`, while n8n answers that its database is not ready. */
export async function postWhenDatabaseReady(
	url: string,
	body: unknown,
	timeoutMs: number,
	waitMs = 30_000,
): Promise<Posted> {
	const deadline = Date.now() + waitMs;
	for (;;) {
		const posted = await post(url, body, timeoutMs);
		if (!databaseNotReady(posted) || Date.now() > deadline) return posted;
		await sleep(500);
	}
}

export function expectOk(posted: Posted, what: string): Posted {
	if (posted.status !== 200) {
		throw new Error(`${what}: HTTP ${posted.status} ${posted.text.slice(0, 500)}`);
	}
	return posted;
}

export { listAllExecutions, UNFINISHED } from '../../test/e2e/harness/burst';
