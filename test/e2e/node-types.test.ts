import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { connect } from './harness/state';
import { builtCredentialTypes, builtNodeDescriptions, packageManifest } from './harness/fixtures';
import type { N8nClient } from './harness/client';

const operationOptions = (description: INodeTypeDescription) =>
	description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
		// n8n adds its own "Custom API Call" entry to every operation list.
		.filter((option) => option.value !== '__CUSTOM_API_CALL__');

let client: N8nClient;

beforeAll(async () => {
	({ client } = connect());
});

describe('the installed package in n8n', () => {
	it('has every node of package.json loaded, under the community package type names', async () => {
		const { name: packageName } = packageManifest();
		const loaded = new Map((await client.nodeTypes()).map((type) => [type.name, type]));
		const descriptions = builtNodeDescriptions();
		expect(descriptions.length).toBeGreaterThan(0);
		for (const description of descriptions) {
			const type = `${packageName}.${description.name}`;
			expect(loaded.get(type)?.displayName).toBe(description.displayName);
			if (description.usableAsTool) expect(loaded.has(`${type}Tool`)).toBe(true);
		}
		const ours = [...loaded.keys()].filter((name) => name.startsWith(`${packageName}.`));
		const expected = descriptions.flatMap((d) => [
			`${packageName}.${d.name}`,
			...(d.usableAsTool ? [`${packageName}.${d.name}Tool`] : []),
		]);
		expect(ours.sort()).toEqual(expected.sort());
	});

	it('has every credential type of package.json loaded', async () => {
		const loaded = new Map((await client.credentialTypes()).map((type) => [type.name, type]));
		const credentials = builtCredentialTypes();
		expect(credentials.length).toBeGreaterThan(0);
		for (const credential of credentials) {
			expect(loaded.get(credential.name)?.displayName).toBe(credential.displayName);
		}
	});

	it('links each node to the credential types it declares', async () => {
		const { name: packageName } = packageManifest();
		const loaded = new Map((await client.nodeTypes()).map((type) => [type.name, type]));
		const credentialNames = new Set((await client.credentialTypes()).map((type) => type.name));
		for (const description of builtNodeDescriptions()) {
			const type = loaded.get(`${packageName}.${description.name}`) as unknown as {
				credentials?: Array<{ name: string }>;
			};
			const declared = (description.credentials ?? []).map((c) => c.name);
			expect((type.credentials ?? []).map((c) => c.name)).toEqual(declared);
			for (const name of declared) expect(credentialNames.has(name)).toBe(true);
		}
	});

	it('gives each tool variant an ai_tool output, a tool description and every operation', async () => {
		const { name: packageName } = packageManifest();
		const loaded = (await client.nodeTypes()) as unknown as INodeTypeDescription[];
		const actionNodes = builtNodeDescriptions().filter((description) => description.usableAsTool);
		expect(actionNodes.length).toBeGreaterThan(0);
		for (const description of actionNodes) {
			const tool = loaded.find((type) => type.name === `${packageName}.${description.name}Tool`);
			expect(tool).toBeDefined();
			expect(JSON.stringify(tool!.outputs)).toContain('ai_tool');
			const names = (tool!.properties as INodeProperties[]).map((p) => p.name);
			expect(names).toEqual(expect.arrayContaining(['toolDescription', 'resource']));
			const values = (d: INodeTypeDescription) =>
				operationOptions(d)
					.map((o) => o.value)
					.sort();
			expect(values(tool!)).toEqual(values(description));
		}
	});
});
