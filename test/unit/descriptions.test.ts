import type { INodeType } from 'n8n-workflow';

import { allProperties, packageNodes } from './nodeClasses';

const nodes: INodeType[] = packageNodes.map(({ node }) => node);

describe.each(nodes.map((node) => [node.description.displayName, node] as const))(
	'%s description',
	(_name, node) => {
		const properties = allProperties(node.description.properties);

		it('has light and dark icons and a subtitle', () => {
			expect(node.description.icon).toEqual({
				light: expect.stringMatching(/^file:.*\.svg$/),
				dark: expect.stringMatching(/^file:.*\.dark\.svg$/),
			});
			expect(node.description.subtitle).toMatch(/^=\{\{/);
		});

		it('starts every boolean description with "Whether"', () => {
			const booleans = properties.filter((p) => p.type === 'boolean' && p.description);
			for (const property of booleans) {
				expect([property.name, property.description]).toEqual([
					property.name,
					expect.stringMatching(/^Whether /),
				]);
			}
		});

		// An optional field is sent as it is added, so its default must be a value the service takes.
		it('has no optional number default outside its own bounds', () => {
			for (const property of properties.filter((p) => p.type === 'number' && !p.required)) {
				const { minValue, maxValue } = property.typeOptions ?? {};
				const value = property.default as number;
				if (minValue !== undefined)
					expect([property.name, value >= minValue]).toEqual([property.name, true]);
				if (maxValue !== undefined)
					expect([property.name, value <= maxValue]).toEqual([property.name, true]);
			}
		});

		it("offers the Scraping API credential with the nodes' own test of every filled host", () => {
			for (const credential of node.description.credentials ?? []) {
				if (credential.name !== 'scrapingApi') continue;
				expect(credential.testedBy).toBe('scrapingApiTest');
				expect(node.methods?.credentialTest?.scrapingApiTest).toEqual(expect.any(Function));
			}
		});

		it('opens every resource locator on "From List"', () => {
			for (const property of properties.filter((p) => p.type === 'resourceLocator')) {
				expect(property.default).toMatchObject({ mode: 'list' });
				expect(property.modes?.[0]?.name).toBe('list');
			}
		});

		it('gives every Get Many operation Return All and a Limit shown only without it', () => {
			const forGetMany = (name: string) =>
				properties.filter(
					(p) => p.name === name && p.displayOptions?.show?.operation?.includes('getAll'),
				);
			expect(forGetMany('limit')).toHaveLength(forGetMany('returnAll').length);
			for (const limit of forGetMany('limit')) {
				expect(limit.displayOptions?.show?.returnAll).toEqual([false]);
			}
		});

		it('is usable as an AI tool exactly when it is an action node', () => {
			const isTrigger = node.description.group.includes('trigger');
			expect(Boolean(node.description.usableAsTool)).toBe(!isTrigger);
		});
	},
);
