import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible chat model that follows a script, for n8n's OpenAI Chat Model node (its
 * credential's Base URL points here). A prompt names its case (`[case …]`); the first call of a
 * case answers with a call of the one tool offered, with the case's arguments; once the request
 * carries the tool's answer, that answer is recorded and the model ends the turn.
 */
export interface ScriptedModel {
	url: string;
	/** The arguments the model will call the tool with, for prompts that name `caseId`. */
	plan(caseId: string, args: Record<string, unknown>): void;
	/** What the model received as the tool's answers in a case, in order. */
	toolAnswers(caseId: string): string[];
	/** The tool names the model was offered in a case, with their descriptions. */
	toolsOffered(caseId: string): Array<{ name: string; description: string }>;
	prompt(caseId: string, text?: string): string;
	stop(): Promise<void>;
}

interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
}

interface ChatRequest {
	messages: ChatMessage[];
	tools?: Array<{ function: { name: string; description?: string } }>;
	stream?: boolean;
}

const CASE = /\[case ([\w.:-]+)\]/;

const textOf = (content: unknown): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part) => (part as { text?: string }).text ?? '').join('')
			: '';

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

export async function startScriptedModel(): Promise<ScriptedModel> {
	const plans = new Map<string, Record<string, unknown>>();
	const answers = new Map<string, string[]>();
	const offered = new Map<string, Array<{ name: string; description: string }>>();
	let calls = 0;

	const reply = (request: ChatRequest) => {
		const caseId = request.messages
			.filter((message) => message.role === 'user' || message.role === 'human')
			.map((message) => CASE.exec(textOf(message.content))?.[1])
			.find(Boolean);
		const toolMessages = request.messages.filter((message) => message.role === 'tool');
		if (!caseId) return { content: 'No case in the prompt.' };
		offered.set(
			caseId,
			(request.tools ?? []).map(({ function: f }) => ({
				name: f.name,
				description: f.description ?? '',
			})),
		);
		if (toolMessages.length > 0) {
			answers.set(
				caseId,
				toolMessages.map((message) => textOf(message.content)),
			);
			return { content: `Done with ${caseId}.` };
		}
		const args = plans.get(caseId);
		const tool = request.tools?.[0]?.function.name;
		if (!args || !tool) return { content: `No plan or no tool for ${caseId}.` };
		calls += 1;
		return {
			toolCall: { id: `call_${calls}`, name: tool, arguments: JSON.stringify(args) },
		};
	};

	const server: Server = createServer((req, res) => {
		void (async () => {
			if (req.method === 'GET' && req.url?.endsWith('/models')) {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }] }));
				return;
			}
			if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
				res.writeHead(404).end();
				return;
			}
			const request = JSON.parse(await readBody(req)) as ChatRequest;
			const { content, toolCall } = reply(request);
			const message = toolCall
				? {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: toolCall.id,
								type: 'function',
								function: { name: toolCall.name, arguments: toolCall.arguments },
							},
						],
					}
				: { role: 'assistant', content };
			const finish = toolCall ? 'tool_calls' : 'stop';
			const base = { id: `chatcmpl-${calls}`, created: 1, model: 'scripted' };
			const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
			if (!request.stream) {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({
						...base,
						object: 'chat.completion',
						choices: [{ index: 0, message, finish_reason: finish }],
						usage,
					}),
				);
				return;
			}
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			const chunk = (delta: object, finishReason: string | null) =>
				`data: ${JSON.stringify({
					...base,
					object: 'chat.completion.chunk',
					choices: [{ index: 0, delta, finish_reason: finishReason }],
				})}\n\n`;
			const delta = toolCall
				? {
						role: 'assistant',
						tool_calls: [{ index: 0, ...message.tool_calls![0] }],
					}
				: { role: 'assistant', content };
			res.write(chunk(delta, null));
			res.write(chunk({}, finish));
			res.end('data: [DONE]\n\n');
		})().catch((error: Error) => {
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: error.message } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/v1`,
		plan: (caseId, args) => plans.set(caseId, args),
		toolAnswers: (caseId) => answers.get(caseId) ?? [],
		toolsOffered: (caseId) => offered.get(caseId) ?? [],
		prompt: (caseId, text = 'Use the tool once.') => `[case ${caseId}] ${text}`,
		stop: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
