/**
 * What n8n's own HTTP Request node, used as a tool, hands the model when the service refuses, beside
 * this package's Review Scraper tool on the same refusal (Respond Job → Get of a job the service
 * does not have), under AI Agent 2.2 and 3.1. Run once, not part of `npm test`:
 *
 *   npm run build && npx jest --selectProjects measure --runInBand --testTimeout=900000 agent-tool-errors
 *
 * Results go to test-artifacts/agent-tool-errors.json.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Simulator } from '../../simulator/server';
import type { N8nClient, WorkflowNode } from '../../test/e2e/harness/client';
import { createSimulatorCredentials, startSimulator } from '../../test/e2e/harness/fixtures';
import { startScriptedModel, type ScriptedModel } from '../../test/e2e/harness/scriptedModel';
import { connect } from '../../test/e2e/harness/state';
import { activateAgentWithTool, scriptedModelCredential } from '../../test/e2e/harness/agents';

let client: N8nClient;
let simulator: Simulator;
let model: ScriptedModel;
let credentials: Record<string, { id: string; name: string }>;
let openAi: { id: string; name: string };

beforeAll(async () => {
	({ client } = connect());
	simulator = await startSimulator();
	model = await startScriptedModel();
	credentials = await createSimulatorCredentials(client, simulator, 'tool errors');
	openAi = await scriptedModelCredential(client, model, 'tool errors');
});
afterAll(async () => {
	await simulator?.stop();
	await model?.stop();
});

const UNKNOWN_JOB = 999999;

const tools = (): Record<string, WorkflowNode> => ({
	'n8n HTTP Request (as a tool)': {
		id: randomUUID(),
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequestTool',
		typeVersion: 4.2,
		position: [440, 200],
		parameters: {
			toolDescription: 'Reads one respond job',
			url: `${simulator.urls.baseUrl}/api/v2/responds/jobs/${UNKNOWN_JOB}`,
			sendHeaders: true,
			headerParameters: {
				parameters: [{ name: 'spiderman-token', value: simulator.config.token }],
			},
			options: {},
		},
	},
	'Review Scraper (as a tool)': {
		id: randomUUID(),
		name: 'Respond Job',
		type: 'n8n-nodes-review-scraping.reviewScraperTool',
		typeVersion: 1,
		position: [440, 200],
		parameters: { resource: 'respondJob', operation: 'get', jobId: UNKNOWN_JOB },
		credentials: { reviewScraperApi: credentials.reviewScraperApi },
	},
});

it('records what the model receives of a refusal, per tool and agent version', async () => {
	const received: Record<string, string> = {};
	for (const agentVersion of [2.2, 3.1]) {
		for (const [label, tool] of Object.entries(tools())) {
			const caseId = `${label}-${agentVersion}`.replace(/\W+/g, '-');
			const { id, path: webhookPath } = await activateAgentWithTool(client, {
				name: caseId,
				agentVersion,
				tool,
				openAi,
			});
			try {
				model.plan(caseId, {});
				const res = await client.callWebhook(webhookPath, { prompt: model.prompt(caseId) }, 60_000);
				await res.text();
				received[`${label}, AI Agent ${agentVersion}`] =
					model.toolAnswers(caseId)[0] ?? `(no tool answer; HTTP ${res.status})`;
			} finally {
				await client.deactivate(id);
			}
		}
	}
	const dir = path.join(process.cwd(), 'test-artifacts');
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'agent-tool-errors.json'), JSON.stringify(received, null, 2));
	console.log(JSON.stringify(received, null, 2));
	for (const version of [2.2, 3.1]) {
		expect(received[`Review Scraper (as a tool), AI Agent ${version}`]).toContain("doesn't exist");
	}
});
