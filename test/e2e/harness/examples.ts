import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { WorkflowDefinition, WorkflowNode } from './client';
import { repoRoot } from './paths';

export const examplesDir = path.join(repoRoot, 'examples');

/** The address the examples are written for: n8n's default. */
export const EXAMPLE_N8N_URL = 'http://localhost:5678';

export interface Example {
	file: string;
	workflow: WorkflowDefinition;
}

export function loadExamples(): Example[] {
	return readdirSync(examplesDir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(
				readFileSync(path.join(examplesDir, file), 'utf8'),
			) as WorkflowDefinition,
		}));
}

/**
 * Points an example at a running instance: its credential references at the credentials created
 * there (by type), and every URL written for n8n's default address at the real one.
 */
export function prepareExample(
	workflow: WorkflowDefinition,
	options: { credentials: Record<string, { id: string; name: string }>; n8nUrl: string },
): WorkflowDefinition {
	const text = JSON.stringify(workflow)
		.split(EXAMPLE_N8N_URL)
		.join(options.n8nUrl.replace(/\/$/, ''));
	const prepared = JSON.parse(text) as WorkflowDefinition;
	for (const node of prepared.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			const credential = options.credentials[type];
			if (!credential) throw new Error(`${workflow.name}: no credential of type ${type} to use`);
			node.credentials![type] = credential;
		}
	}
	return {
		name: prepared.name,
		nodes: prepared.nodes,
		connections: prepared.connections,
		settings: prepared.settings ?? { executionOrder: 'v1' },
	};
}

const WEBHOOK_TRIGGERS = new Set([
	'n8n-nodes-base.webhook',
	'n8n-nodes-review-scraping.scrapingCallbackTrigger',
]);

/** Workflows started by a production webhook are activated on import; manual ones are not. */
export function isWebhookTriggered(workflow: WorkflowDefinition): boolean {
	return workflow.nodes.some((node: WorkflowNode) => WEBHOOK_TRIGGERS.has(node.type));
}
