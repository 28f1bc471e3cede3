import { randomUUID } from 'node:crypto';

import type { Execution, N8nClient, NodeRun, WorkflowNode } from './client';
import type { SuiteState } from './state';

/** A node of any type, at version 1 unless `extra` says otherwise. */
export function workflowNode(
	type: string,
	name: string,
	parameters: Record<string, unknown> = {},
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	return { id: randomUUID(), name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

/** One of n8n's own nodes (n8n-nodes-base). */
export const baseNode = (
	type: string,
	name: string,
	typeVersion: number,
	parameters: Record<string, unknown> = {},
) => workflowNode(`n8n-nodes-base.${type}`, name, parameters, { typeVersion });

export function webhookNode(
	path: string,
	options: { name?: string; respond?: 'lastNode' | 'onReceived' } = {},
): WorkflowNode {
	const respond = options.respond ?? 'lastNode';
	return {
		id: randomUUID(),
		name: options.name ?? 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: respond,
			...(respond === 'lastNode' ? { responseData: 'allEntries' } : { responseData: '' }),
			options: {},
		},
	};
}

/** Turns `body[field]` (an array) of the incoming request into one item per element. */
export function splitOutNode(field: string, name = 'Split Out'): WorkflowNode {
	return baseNode('splitOut', name, 1, {
		fieldToSplitOut: field,
		include: 'noOtherFields',
		options: {},
	});
}

/** n8n's HTTP Request node (4.2) authenticated with one of this package's credential types. */
export function httpRequestNode(
	credentialType: string,
	credential: { id: string; name: string },
	parameters: Record<string, unknown>,
): WorkflowNode {
	return {
		...baseNode('httpRequest', 'HTTP Request', 4.2, {
			authentication: 'predefinedCredentialType',
			nodeCredentialType: credentialType,
			options: {},
			...parameters,
		}),
		credentials: { [credentialType]: credential },
	};
}

/**
 * n8n's HTTP Request node submitting the incoming body's profile (`url`, `blocks`) with the
 * execution's own resume URL as the callback: what a user builds for n8n's Wait node to wait on.
 */
export function profileAddResumingHere(
	credential: { id: string; name: string },
	simulatorBaseUrl: string,
): WorkflowNode {
	return httpRequestNode('reviewScraperApi', credential, {
		method: 'POST',
		url: `${simulatorBaseUrl}/api/v2/profiles/add`,
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: {
			parameters: [
				{ name: 'url', value: '={{ $json.body.url }}' },
				{ name: 'blocks', value: '={{ $json.body.blocks }}' },
				{ name: 'callback', value: '={{ $execution.resumeUrl }}' },
			],
		},
	});
}

/** Connects the nodes one after the other on their main output and lays them out left to right. */
export function chain(nodes: WorkflowNode[]): {
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
} {
	const connections: Record<string, unknown> = {};
	nodes.forEach((node, index) => {
		node.position = [index * 220, 0];
		const next = nodes[index + 1];
		if (next) connections[node.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { nodes, connections };
}

export interface WebhookRun {
	workflowId: string;
	status: number;
	response: unknown;
	execution: Execution;
	/** The items a node produced on its first output, as JSON. */
	output(nodeName: string): Array<Record<string, unknown>>;
	run(nodeName: string): NodeRun;
}

export function nodeOutput(execution: Execution, nodeName: string): Array<Record<string, unknown>> {
	const run = nodeRun(execution, nodeName);
	return (run.data?.main[0] ?? []).map((item) => item.json);
}

export function nodeRun(execution: Execution, nodeName: string): NodeRun {
	const runs = execution.data?.resultData.runData[nodeName];
	if (!runs?.length) {
		const ran = Object.keys(execution.data?.resultData.runData ?? {}).join(', ');
		throw new Error(
			`node "${nodeName}" did not run in execution ${execution.id} (status ${execution.status}; ran: ${ran}; ` +
				`error: ${execution.data?.resultData.error?.message ?? 'none'})`,
		);
	}
	return runs[0];
}

/**
 * Runs `nodes` behind a Webhook trigger in an activated workflow, the way production traffic runs:
 * POST to the production URL, then read the execution back through the public API.
 */
export async function runThroughWebhook(
	client: N8nClient,
	name: string,
	nodes: WorkflowNode[],
	body: unknown = {},
	options: { respond?: 'lastNode' | 'onReceived'; timeoutMs?: number } = {},
): Promise<WebhookRun> {
	const path = `e2e-${randomUUID()}`;
	const workflow = chain([webhookNode(path, { respond: options.respond }), ...nodes]);
	const { id } = await client.createWorkflow({ name, ...workflow });
	await client.activate(id);
	try {
		const res = await client.callWebhook(path, body);
		const text = await res.text();
		let response: unknown = text;
		try {
			response = JSON.parse(text);
		} catch {
			// not JSON: an error page or plain text
		}
		const [execution] = await client.waitForExecutions(id, 1, options.timeoutMs);
		return {
			workflowId: id,
			status: res.status,
			response,
			execution,
			output: (nodeName) => nodeOutput(execution, nodeName),
			run: (nodeName) => nodeRun(execution, nodeName),
		};
	} finally {
		await client.deactivate(id);
	}
}

/** A node of this package, with a webhook id (triggers need one) and its credential if given. */
export function packageNode(
	type: string,
	name: string,
	parameters: Record<string, unknown>,
	credentials?: Record<string, { id: string; name: string }>,
): WorkflowNode {
	return workflowNode(`n8n-nodes-review-scraping.${type}`, name, parameters, {
		webhookId: randomUUID(),
		...(credentials ? { credentials } : {}),
	});
}

/** Production URL of a trigger whose webhook description has a `path` (n8n prefixes the webhook id). */
export function productionUrl(n8nUrl: string, trigger: WorkflowNode, path: string): string {
	return `${n8nUrl.replace(/\/$/, '')}/webhook/${trigger.webhookId}/${path}`;
}

/** Creates and activates a workflow made of `nodes` in a chain; returns its id. */
export async function activateChain(
	client: N8nClient,
	name: string,
	nodes: WorkflowNode[],
): Promise<string> {
	const { id } = await client.createWorkflow({ name, ...chain(nodes) });
	await client.activate(id);
	return id;
}

/**
 * A raw POST to a production webhook URL (any body text, headers). Answers 404 "not registered"
 * for a moment after activation, so 404 is retried until `timeoutMs`.
 */
export async function postToWebhook(
	url: string,
	body: string | Record<string, unknown> | unknown[],
	options: { headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; body: unknown }> {
	const deadline = Date.now() + (options.timeoutMs ?? 10_000);
	for (;;) {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...options.headers },
			body: typeof body === 'string' ? body : JSON.stringify(body),
			signal: AbortSignal.timeout(30_000),
		});
		const text = await res.text();
		if (res.status !== 404 || Date.now() > deadline) {
			let parsed: unknown = text;
			try {
				parsed = JSON.parse(text);
			} catch {
				// plain text
			}
			return { status: res.status, body: parsed };
		}
		await new Promise((r) => setTimeout(r, 200));
	}
}

/**
 * Every execution of a workflow, whatever its status: the public API leaves running ones out of
 * its list unless asked for them by status, so both lists are joined.
 */
export async function executionCount(client: N8nClient, workflowId: string): Promise<number> {
	const [settled, running] = await Promise.all([
		client.listExecutions({ workflowId, limit: 250 }),
		client.listExecutions({ workflowId, status: 'running', limit: 250 }),
	]);
	return new Set([...settled, ...running].map((e) => e.id)).size;
}

/**
 * Proves a negative within a bounded time: polls for `ms` and fails as soon as the workflow has
 * more executions than `expected`.
 */
export async function expectExecutionCountStays(
	client: N8nClient,
	workflowId: string,
	expected: number,
	ms = 2_500,
): Promise<void> {
	const deadline = Date.now() + ms;
	for (;;) {
		const count = await executionCount(client, workflowId);
		if (count !== expected) {
			throw new Error(`workflow ${workflowId}: expected ${expected} executions, found ${count}`);
		}
		if (Date.now() > deadline) return;
		await new Promise((r) => setTimeout(r, 250));
	}
}

/** Waits until an execution has `status` (for example `waiting`), then returns it with its data. */
export async function waitForExecutionStatus(
	client: N8nClient,
	workflowId: string,
	status: string,
	timeoutMs = 20_000,
): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = await client.listExecutions({ workflowId, limit: 50 });
		const found = executions.find((e) => e.status === status);
		if (found) return await client.getExecution(found.id);
		if (Date.now() > deadline) {
			throw new Error(
				`workflow ${workflowId}: no ${status} execution after ${timeoutMs} ms ` +
					`(statuses: ${executions.map((e) => e.status).join(', ') || 'none'})`,
			);
		}
		await new Promise((r) => setTimeout(r, 200));
	}
}

/** Where production webhooks and resume URLs are served: n8n itself, or queue mode's webhook process. */
export function webhookBase(state: { n8nUrl: string; webhookUrl?: string }): string {
	return (state.webhookUrl ?? state.n8nUrl).replace(/\/$/, '');
}

/**
 * One n8n process that serves webhooks: in queue mode the twin's first webhook process, reached
 * without the front. The triggers' repeat filter screens what reaches the process that took the
 * first delivery: n8n 2.41 saves a webhook's static data only while it is empty, so another
 * process does not learn it (Remove Duplicates does that: docs/results-delivery.md).
 */
export function oneWebhookProcess(state: SuiteState): string {
	return state.queue?.processes.find((p) => p.name === 'webhook')?.url ?? webhookBase(state);
}
