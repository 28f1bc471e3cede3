import { randomUUID } from 'node:crypto';

import type { N8nClient, WorkflowNode } from './client';
import type { ScriptedModel } from './scriptedModel';
import { webhookNode } from './workflows';

type Credential = { id: string; name: string };

/** An OpenAI credential whose Base URL is the scripted model. */
export async function scriptedModelCredential(
	client: N8nClient,
	model: ScriptedModel,
	label: string,
): Promise<Credential> {
	return await client.createCredential(`Scripted model (${label})`, 'openAiApi', {
		apiKey: 'scripted',
		url: model.url,
		// n8n 1.x's public API asks for the custom header's fields unless it is said to be off.
		header: false,
	});
}

/** The connection that offers `tool` to `consumer` (an AI Agent or the MCP Server Trigger). */
export const toolConnection = (tool: WorkflowNode, consumer: WorkflowNode) => ({
	[tool.name]: { ai_tool: [[{ node: consumer.name, type: 'ai_tool', index: 0 }]] },
});

/**
 * Webhook → AI Agent (its prompt from the body's `prompt`) with the scripted model and one tool,
 * activated. Returns the workflow's id and the webhook's path.
 */
export async function activateAgentWithTool(
	client: N8nClient,
	options: { name: string; agentVersion: number; tool: WorkflowNode; openAi: Credential },
): Promise<{ id: string; path: string }> {
	const path = `agent-${randomUUID()}`;
	const webhook = webhookNode(path);
	const agent: WorkflowNode = {
		id: randomUUID(),
		name: 'AI Agent',
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion: options.agentVersion,
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
		credentials: { openAiApi: options.openAi },
	};
	const { id } = await client.createWorkflow({
		name: options.name,
		nodes: [webhook, agent, chatModel, options.tool],
		connections: {
			[webhook.name]: { main: [[{ node: agent.name, type: 'main', index: 0 }]] },
			[chatModel.name]: {
				ai_languageModel: [[{ node: agent.name, type: 'ai_languageModel', index: 0 }]],
			},
			...toolConnection(options.tool, agent),
		},
	});
	await client.activate(id);
	return { id, path };
}
