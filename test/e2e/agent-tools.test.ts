import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { WorkflowNode } from './harness/client';
import { n8nMajor } from './harness/compat';
import { recordN8nFault } from './harness/n8nFaults';
import { builtNodeDescriptions } from './harness/fixtures';
import { startScriptedModel, type ScriptedModel } from './harness/scriptedModel';
import { activateAgentWithTool, scriptedModelCredential, toolConnection } from './harness/agents';
import { packageNode } from './harness/workflows';
import {
	actionNodes,
	arrange,
	newestVersion,
	operationsOf,
	REFUSAL,
	rows,
	waitingOperations,
	type Row,
} from '../settings/matrix';
import { currentMode } from './harness/state';
import { useE2e } from './harness/suite';

/**
 * Each action node as an AI agent's tool, in real n8n, with a scripted chat model: every operation
 * of the operation tables (the settings matrix's rows) × the agent versions users have × the
 * outcomes of a call. What the model receives is read where the model receives it.
 */

const { client, simulator, credentials } = useE2e({
	credentials: 'agent tools',
	resetEachTest: false,
});
let model: ScriptedModel;
let openAi: { id: string; name: string };

/**
 * AI Agent 2.2 runs tools in LangChain's AgentExecutor, 3 and newer as nodes of the execution. Queue
 * mode runs the newest only: 2.2 runs on a worker as in the main process and cannot wait, where a
 * tool's Wait for Completion (3 and newer) is saved and resumed through the webhook process.
 */
const AGENT_VERSIONS = n8nMajor() < 2 ? [2.2, 3] : currentMode() === 'queue' ? [3.1] : [2.2, 3.1];

beforeAll(async () => {
	model = await startScriptedModel();
	openAi = await scriptedModelCredential(client, model, 'agent tools');
});
afterAll(async () => {
	await model?.stop();
});

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

/** The node's tool variant for an operation, with the node's own credential. */
function toolNode(
	node: string,
	operation: string,
	parameters: IDataObject,
	typeVersion = 1,
): WorkflowNode {
	const [resource, op] = operation.split('.');
	const credential = builtNodeDescriptions().find((d) => d.name === node)!.credentials![0].name;
	return {
		...packageNode(
			`${node}Tool`,
			'Service Tool',
			{ resource, operation: op, ...parameters },
			{ [credential]: credentials[credential] },
		),
		typeVersion,
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
	// What reached the service: a call the rate limit refused (and the node sent again) is not one.
	const served = () =>
		simulator.requests().filter((entry) => entry.origin !== 'schedule' && !entry.rateLimited)
			.length;
	const before = served();
	const res = await client.callWebhook(path, { prompt: model.prompt(caseId) }, 60_000);
	const body = await res.text();
	expect({ status: res.status, body: res.status === 200 ? '' : body }).toEqual({
		status: 200,
		body: '',
	});
	// A tool that waits answers once the callback has resumed the execution, after the response.
	for (let poll = 0; poll < 600 && model.toolAnswers(caseId).length === 0; poll++) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	const requests = served() - before;
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

/** The tool description a node offers by default for an operation, from its built description. */
function defaultToolDescription(node: string, operation: string, waiting = false): string {
	const [resource, op] = operation.split('.');
	const field = builtNodeDescriptions()
		.find((description) => description.name === node)!
		.properties.find(
			({ name, displayOptions }) =>
				name === 'toolDescription' &&
				displayOptions?.show?.resource?.includes(resource) &&
				displayOptions.show.operation?.includes(op) &&
				(displayOptions.show.waitForCompletion?.includes(waiting) ?? true),
		);
	return String(field?.default ?? '');
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

// Each operation on the newest version (Respond Job → Get's list picker from 1.3, Return All /
// Limit from 1.2); what the older versions send is test/engine's.
const toolCases = Object.entries(actionNodes).flatMap(([node, type]) =>
	operationsOf(type).map((operation) => ({
		label: `${node} ${operation}`,
		node,
		operation,
		typeVersion: newestVersion(type),
		row: rows[node][operation],
	})),
);

describe.each(AGENT_VERSIONS)('each action node as a tool of AI Agent %s', (agentVersion) => {
	it.each(toolCases.map((c) => [c.label, c] as const))(
		'%s: a result, a refusal by the service and a refused argument reach the model',
		async (label, { node, operation, row, typeVersion }) => {
			const tag = `${agentVersion}-${label.replace(/\W+/g, '-')}`;
			const { id, path } = await activateAgentWithTool(client, {
				name: `tool ${label} agent ${agentVersion}`,
				agentVersion,
				tool: toolNode(node, operation, toolParameters(row), typeVersion),
				openAi,
			});
			try {
				const { items } = await arrange(simulator, row, `${tag}-r`.replace(/\./g, ''), true);
				const refused = await callTool(path, `${tag}-refused`, argumentsOf(items[0]));
				// What the model reads about the tool: the operation's description, not n8n's few words.
				const [offered] = model.toolsOffered(`${tag}-refused`);
				expect(offered.description).toBe(defaultToolDescription(node, operation));
				expect(offered.description.length).toBeGreaterThan(60);
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
			const { id, path } = await activateAgentWithTool(client, {
				name: `tool ${label} waiting, agent ${agentVersion}`,
				agentVersion,
				tool: toolNode(node, operation, { ...toolParameters(row), waitForCompletion: true }),
				openAi,
			});
			try {
				const items = await row.items(simulator, tag.replace(/\./g, ''));
				const call = await callTool(path, tag, argumentsOf(items[1]));
				expectNoSecret(call.raw);
				expect(model.toolsOffered(tag)[0].description).toBe(
					defaultToolDescription(node, operation, true),
				);
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

interface McpAnswer {
	isError?: boolean;
	content?: Array<{ type: string; text: string }>;
}

/** A client of n8n's MCP Server Trigger over Streamable HTTP, as MCP clients speak it. */
async function mcpSession(url: string) {
	let sessionId: string | undefined;
	let nextId = 1;
	const send = async (body: object) =>
		await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				...(sessionId ? { 'mcp-session-id': sessionId } : {}),
			},
			body: JSON.stringify(body),
		});
	const post = async (body: object) => {
		// n8n 2.41 closed the connection under one of these calls once, on a loaded machine (a fresh-clone
		// run): sent again, twice at most, and recorded as n8n's.
		let res: Response | undefined;
		for (let attempt = 0; !res; attempt++) {
			res = await send(body).catch((error: Error & { cause?: { code?: string } }) => {
				if (error.cause?.code !== 'UND_ERR_SOCKET' || attempt >= 2) throw error;
				recordN8nFault('n8n: connection closed under a request', `MCP POST ${url}, sent again`);
				return undefined;
			});
		}
		sessionId ??= res.headers.get('mcp-session-id') ?? undefined;
		const text = await res.text();
		const messages = (res.headers.get('content-type') ?? '').includes('event-stream')
			? text
					.split('\n')
					.filter((line) => line.startsWith('data:'))
					.map((line) => JSON.parse(line.slice(5)) as { id?: number; result?: unknown })
			: text.trim()
				? [JSON.parse(text) as { id?: number; result?: unknown }]
				: [];
		return { status: res.status, messages };
	};
	const request = async <T>(method: string, params: object): Promise<T> => {
		const id = nextId++;
		const { status, messages } = await post({ jsonrpc: '2.0', id, method, params });
		const answer = messages.find((message) => message.id === id);
		if (!answer) throw new Error(`MCP ${method}: HTTP ${status}, no answer`);
		return answer.result as T;
	};
	// Until n8n has registered the trigger's webhook (published in the background on 2.x): 404.
	const initialize = {
		jsonrpc: '2.0',
		id: 0,
		method: 'initialize',
		params: {
			protocolVersion: '2025-03-26',
			capabilities: {},
			clientInfo: { name: 'e2e', version: '1.0.0' },
		},
	};
	// n8n 1.123.81 once closed the connection instead (all 45 tests, on a busy machine, right after
	// its start): tried again the same way.
	for (let attempt = 0; ; attempt++) {
		const status = await post(initialize).then(
			(answer) => answer.status,
			(error: Error) => {
				if (attempt >= 50) throw error;
				return 0;
			},
		);
		if (status === 200) break;
		if ((status !== 404 && status !== 0) || attempt >= 50) {
			throw new Error(`MCP initialize: HTTP ${status}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
	const { tools } = await request<{ tools: Array<{ name: string }> }>('tools/list', {});
	return {
		tools,
		call: async (name: string, args: IDataObject) =>
			await request<McpAnswer>('tools/call', { name, arguments: args }),
	};
}

/** Per node, the first operation whose refusal can be aimed at one request. */
const mcpCases = Object.entries(actionNodes).map(([node, type]) => {
	const operation = operationsOf(type).find((op) => rows[node][op].marker)!;
	return { node, operation, row: rows[node][operation] };
});

describe('each action node as a tool of the MCP Server Trigger', () => {
	let mcpTriggerVersion: number;
	beforeAll(async () => {
		const types = await client.nodeTypes();
		const versions = types
			.filter((type) => type.name === '@n8n/n8n-nodes-langchain.mcpTrigger')
			.flatMap((type) => (Array.isArray(type.version) ? type.version : [type.version]));
		mcpTriggerVersion = Math.max(...versions);
	});

	async function mcpServerWith(tool: WorkflowNode, name: string) {
		const path = `mcp-${randomUUID()}`;
		const trigger: WorkflowNode = {
			id: randomUUID(),
			name: 'MCP Server Trigger',
			type: '@n8n/n8n-nodes-langchain.mcpTrigger',
			typeVersion: mcpTriggerVersion,
			position: [220, 0],
			webhookId: randomUUID(),
			parameters: { path },
		};
		const { id } = await client.createWorkflow({
			name,
			nodes: [trigger, tool],
			connections: {
				...toolConnection(tool, trigger),
			},
		});
		await client.activate(id);
		const session = await mcpSession(`${client.webhookBaseUrl}/mcp/${path}`);
		expect(session.tools).toHaveLength(1);
		return { id, tool: session.tools[0].name, call: session.call };
	}

	it.each(mcpCases.map((c) => [`${c.node} ${c.operation}`, c] as const))(
		'%s: a refusal comes back as isError with its words, a result as content',
		async (label, { node, operation, row }) => {
			const tag = `mcp-${label.replace(/\W+/g, '-')}`.replace(/\./g, '');
			const server = await mcpServerWith(
				toolNode(node, operation, toolParameters(row)),
				`mcp ${label}`,
			);
			try {
				const { items } = await arrange(simulator, row, tag, true);
				const refused = await server.call(server.tool, argumentsOf(items[0]));
				expect(refused.isError).toBe(true);
				const words = refused.content?.map((part) => part.text).join('') ?? '';
				expect(words).toContain(REFUSAL);
				expect(words).toMatch(/before calling again|try again later/);
				expectNoSecret(words);

				const result = await server.call(server.tool, argumentsOf(items[1]));
				expect(result.isError).toBeFalsy();
				const text = result.content?.map((part) => part.text).join('') ?? '';
				expect(text).not.toContain('"error"');
				expect(text.length).toBeGreaterThan(2);
				expectNoSecret(text);
			} finally {
				await client.deactivate(server.id);
			}
		},
	);

	it('refuses Wait for Completion before sending: the call would answer before the results', async () => {
		const row = rows.reviewScraper['profile.add'];
		const server = await mcpServerWith(
			toolNode('reviewScraper', 'profile.add', { ...toolParameters(row), waitForCompletion: true }),
			'mcp waiting',
		);
		try {
			const before = simulator.requests().length;
			const answer = await server.call(server.tool, {
				url: 'https://reviews.example.com/mcp-wait',
			});
			expect(answer.isError).toBe(true);
			expect(answer.content?.[0].text).toContain('Wait for Completion cannot wait');
			expect(simulator.requests().length).toBe(before);
		} finally {
			await client.deactivate(server.id);
		}
	});
});
