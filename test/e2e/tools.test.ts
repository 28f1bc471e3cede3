import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import {
	createSimulatorCredentials,
	builtNodeDescriptions,
	packageManifest,
} from './harness/fixtures';
import { loadExamples, prepareExample } from './harness/examples';
import { useE2e } from './harness/suite';

const { client, simulator } = useE2e({ resetEachTest: false });

const operationOptions = (description: INodeTypeDescription) =>
	description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
		// n8n adds its own "Custom API Call" entry to every operation list.
		.filter((option) => option.value !== '__CUSTOM_API_CALL__');

describe('the action nodes as AI agent tools, as n8n builds them', () => {
	const actionNodes = builtNodeDescriptions().filter((description) => description.usableAsTool);

	it('makes every action node usable as a tool, and no trigger', () => {
		expect(actionNodes.map((d) => d.name).sort()).toEqual(
			[
				'ecommerceSearch',
				'reviewScraper',
				'scrapingDelivery',
				'scrapingScheduler',
				'socialScraper',
			].sort(),
		);
		for (const trigger of builtNodeDescriptions().filter((d) => d.group.includes('trigger'))) {
			expect(trigger.usableAsTool).toBeFalsy();
		}
	});

	it('gives each tool variant an ai_tool output, a tool description and every operation', async () => {
		const { name: packageName } = packageManifest();
		const loaded = (await client.nodeTypes()) as unknown as INodeTypeDescription[];
		for (const description of actionNodes) {
			const tool = loaded.find((type) => type.name === `${packageName}.${description.name}Tool`);
			expect(tool).toBeDefined();
			expect(JSON.stringify(tool!.outputs)).toContain('ai_tool');
			const names = (tool!.properties as INodeProperties[]).map((p) => p.name);
			expect(names).toContain('toolDescription');
			expect(names).toContain('resource');
			expect(
				operationOptions(tool!)
					.map((o) => o.value)
					.sort(),
			).toEqual(
				operationOptions(description)
					.map((o) => o.value)
					.sort(),
			);
		}
	});

	it('describes every operation for a model to choose from', () => {
		for (const description of actionNodes) {
			expect(description.description.length).toBeGreaterThan(30);
			for (const option of operationOptions(description)) {
				expect({ node: description.name, option: option.value, action: option.action }).toEqual({
					node: description.name,
					option: option.value,
					action: expect.stringMatching(/^[A-Z][a-z]+( [a-z-]+){1,}/),
				});
				expect(String(option.description).length).toBeGreaterThan(15);
			}
		}
	});

	it('imports the AI agent example with the tools wired to the agent', async () => {
		const example = loadExamples().find((e) => e.file === 'ai-agent-review-tools.json');
		expect(example).toBeDefined();
		const credentials = await createSimulatorCredentials(client, simulator, 'ai agent example');
		const prepared = prepareExample(example!.workflow, {
			credentials,
			n8nUrl: client.webhookBaseUrl,
		});
		const { id } = await client.createWorkflow(prepared);
		expect(id).toBeTruthy();
		const tools = example!.workflow.nodes.filter((node) => node.type.endsWith('Tool'));
		expect(tools.length).toBe(3);
		const connections = JSON.stringify(example!.workflow.connections);
		for (const tool of tools) expect(connections).toContain(`"${tool.name}":{"ai_tool"`);
	});
});
