import { randomUUID } from 'node:crypto';

import type { Execution, N8nClient, NodeRun, WorkflowNode } from './client';

export const REVIEW_SCRAPER = 'n8n-nodes-review-scraping.reviewScraper';

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
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [0, 0],
		parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} },
	};
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
