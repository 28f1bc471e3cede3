import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { N8nClient, WorkflowNode } from './harness/client';
import { n8nMajor } from './harness/compat';
import { createSimulatorCredentials, startSimulator } from './harness/fixtures';
import { startScriptedModel, type ScriptedModel } from './harness/scriptedModel';
import { connect } from './harness/state';
import { webhookNode } from './harness/workflows';
import {
	actionNodes,
	arrange,
	operationsOf,
	REFUSAL,
	rows,
	waitingOperations,
	type Row,
} from '../settings/matrix';
import type { Simulator } from '../../simulator/server';

/**
 * Each action node as an AI agent's tool, in real n8n, with a scripted chat model: every operation
 * of the operation tables (the settings matrix's rows) × the agent versions users have × the
 * outcomes of a call. What the model receives is read where the model receives it.
 */

let client: N8nClient;
let simulator: Simulator;
let model: ScriptedModel;
let credentials: Record<string, { id: string; name: string }>;
let openAi: { id: string; name: string };

/** AI Agent 2.2 runs tools in LangChain's AgentExecutor, 3 and newer as nodes of the execution. */
const AGENT_VERSIONS = n8nMajor() >= 2 ? [2.2, 3.1] : [2.2, 3];

beforeAll(async () => {
	({ client } = connect());
	simulator = await startSimulator();
	model = await startScriptedModel();
	credentials = await createSimulatorCredentials(client, simulator, 'agent tools');
	openAi = await client.createCredential('Scripted model (agent tools)', 'openAiApi', {
		apiKey: 'scripted',
		url: model.url,
	});
});
afterAll(async () => {
	await simulator?.stop();
	await model?.stop();
});

const credentialOf: Record<string, string> = {
	reviewScraper: 'reviewScraperApi',
	ecommerceSearch: 'scrapingApi',
	socialScraper: 'scrapingApi',
	scrapingScheduler: 'scrapingApi',
};

/**
 * A row's parameters as a tool's: each `$json.x` becomes `$fromAI('x')`, the model's argument.
 * Add Many maps its input items in the row; as a tool it takes the profile from the model.
 */
export function toolParameters(row: Row): IDataObject {
	const parameters: IDataObject =
		row.parameters.inputMode === 'autoMap'
			? { ...row.parameters, inputMode: 'defineBelow', url: '={{ $json.url }}' }
			: row.parameters;
	const text = JSON.stringify(parameters).replace(
		/\{\{ \$json\.(\w+) \}\}/g,
		(_match, name: string) => `{{ $fromAI('${name}', 'The ${name}', 'string') }}`,
	);
	return JSON.parse(text) as IDataObject;
}

/** The model's arguments from a row's input item: every value as text, as a model writes it. */
const argumentsOf = (item: IDataObject) =>
	Object.fromEntries(Object.entries(item).map(([key, value]) => [key, String(value)]));

async function agentWorkflow(name: string, agentVersion: number, tool: WorkflowNode) {
	const path = `agent-${randomUUID()}`;
	const webhook = webhookNode(path);
	const agent: WorkflowNode = {
		id: randomUUID(),
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion: agentVersion,
		position: [220, 0],
		parameters: { promptType: 'define', text: '={{ $json.body.prompt }}', options: {} },
	};
	const chatModel: WorkflowNode = {
		id: randomUUID(),
		name: 'Scripted Model',
		type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
		typeVersion: 1.2,
		position: [220, 200],
		parameters: { model: { __rl: true, mode: 'id', value: 'scripted' }, options: {} },
		credentials: { openAiApi: openAi },
	};
	const { id } = await client.createWorkflow({
		name,
		nodes: [webhook, agent, chatModel, tool],
		connections: {
			[webhook.name]: { main: [[{ node: agent.name, type: 'main', index: 0 }]] },
			[chatModel.name]: {
				ai_languageModel: [[{ node: agent.name, type: 'ai_languageModel', index: 0 }]],
			},
			[tool.name]: { ai_tool: [[{ node: agent.name, type: 'ai_tool', index: 0 }]] },
		},
	});
	await client.activate(id);
	return { id, path };
}

function toolNode(node: string, operation: string, parameters: IDataObject): WorkflowNode {
	const [resource, op] = operation.split('.');
	const credential = credentialOf[node];
	return {
		id: randomUUID(),
		name: 'Service Tool',
		type: `n8n-nodes-review-scraping.${node}Tool`,
		typeVersion: 1,
		position: [440, 200],
		parameters: { resource, operation: op, ...parameters },
		credentials: { [credential]: credentials[credential] },
	};
}

interface Call {
	/** What the model received as the tool's answer, parsed. */
	answer: unknown;
	/** Requests the service received during the call. */
	requests: number;
	/** The raw answer, for the secret check. */
	raw: string;
}

async function callTool(path: string, caseId: string, args: IDataObject): Promise<Call> {
	model.plan(caseId, args);
	const before = simulator.requests().filter((entry) => entry.origin !== 'schedule').length;
	const res = await client.callWebhook(path, { prompt: model.prompt(caseId) }, 60_000);
	expect(res.status).toBe(200);
	await res.text();
	// A tool that waits answers once the callback has resumed the execution, after the response.
	for (let poll = 0; poll < 600 && model.toolAnswers(caseId).length === 0; poll++) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	const requests =
		simulator.requests().filter((entry) => entry.origin !== 'schedule').length - before;
	const answers = model.toolAnswers(caseId);
	expect(answers).toHaveLength(1);
	const raw = answers[0];
	let answer: unknown = raw;
	try {
		answer = JSON.parse(raw);
	} catch {
		// not JSON: kept as text
	}
	return { answer, requests, raw };
}

const errorWords = (answer: unknown): string => {
	const first = Array.isArray(answer) ? (answer[0] as IDataObject | undefined) : undefined;
	return typeof first?.error === 'string' ? first.error : '';
};

function expectNoSecret(raw: string) {
	for (const secret of [simulator.config.apiKey, simulator.config.token]) {
		expect(raw).not.toContain(secret);
	}
}

const toolCases = Object.entries(actionNodes).flatMap(([node, type]) =>
	operationsOf(type).map((operation) => ({ node, operation, row: rows[node][operation] })),
);

describe.each(AGENT_VERSIONS)('each action node as a tool of AI Agent %s', (agentVersion) => {
	it.each(toolCases.map((c) => [`${c.node} ${c.operation}`, c] as const))(
		'%s: a result, a refusal by the service and a refused argument reach the model',
		async (label, { node, operation, row }) => {
			const tag = `${agentVersion}-${label.replace(/\W+/g, '-')}`;
			const { id, path } = await agentWorkflow(
				`tool ${label} agent ${agentVersion}`,
				agentVersion,
				toolNode(node, operation, toolParameters(row)),
			);
			try {
				const { items } = await arrange(simulator, row, `${tag}-r`.replace(/\./g, ''), true);
				const refused = await callTool(path, `${tag}-refused`, argumentsOf(items[0]));
				expect({ words: errorWords(refused.answer), requests: refused.requests }).toEqual({
					words: expect.stringContaining(REFUSAL),
					requests: 1,
				});
				expect(errorWords(refused.answer)).toMatch(/before calling again|try again later/);
				expectNoSecret(refused.raw);

				const result = await callTool(path, `${tag}-result`, argumentsOf(items[1]));
				expect(errorWords(result.answer)).toBe('');
				expect(Array.isArray(result.answer) && result.answer.length).toBeGreaterThan(0);
				expect(result.requests).toBeGreaterThanOrEqual(1);
				expectNoSecret(result.raw);

				const invalid = await callTool(path, `${tag}-invalid`, argumentsOf(items[2]));
				expect({ words: errorWords(invalid.answer), requests: invalid.requests }).toEqual({
					words: expect.stringContaining('before calling the tool again'),
					requests: 0,
				});
				expectNoSecret(invalid.raw);
			} finally {
				await client.deactivate(id);
			}
		},
	);

	it.each(waitingOperations())(
		'%s with Wait for Completion: the delivered results, or a refusal before sending',
		async (label) => {
			const [node, operation] = label.split(' ');
			const row = rows[node][operation];
			const tag = `${agentVersion}-wait-${label.replace(/\W+/g, '-')}`;
			const { id, path } = await agentWorkflow(
				`tool ${label} waiting, agent ${agentVersion}`,
				agentVersion,
				toolNode(node, operation, { ...toolParameters(row), waitForCompletion: true }),
			);
			try {
				const items = await row.items(simulator, tag.replace(/\./g, ''));
				const call = await callTool(path, tag, argumentsOf(items[1]));
				expectNoSecret(call.raw);
				if (agentVersion < 3) {
					// AgentExecutor cannot wait: the tool would answer before the results.
					expect(errorWords(call.answer)).toContain('Wait for Completion cannot wait');
					expect(call.requests).toBe(0);
					return;
				}
				expect(errorWords(call.answer)).toBe('');
				expect(call.requests).toBe(1);
				// The delivered results, not the acknowledgement of the submission.
				expect(call.raw).toContain('"wait_status":"completed"');
			} finally {
				await client.deactivate(id);
			}
		},
	);
});
