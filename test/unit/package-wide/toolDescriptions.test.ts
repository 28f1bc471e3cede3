import type { INodeProperties } from 'n8n-workflow';

import { actionNodes, operationsOf, waitingOperations } from '../../settings/matrix';

/**
 * Every operation of every action node tells a model, on its tool variant, what it does, its
 * arguments and what it returns; a submit operation says where its results go.
 */
const toolDescriptions = (properties: INodeProperties[], operation: string) => {
	const [resource, op] = operation.split('.');
	return properties.filter(
		({ name, displayOptions }) =>
			name === 'toolDescription' &&
			displayOptions?.show?.['@tool']?.includes(true) &&
			displayOptions.show.resource?.includes(resource) &&
			displayOptions.show.operation?.includes(op),
	);
};

const cases = Object.entries(actionNodes).flatMap(([node, type]) =>
	operationsOf(type).map((operation) => [`${node} ${operation}`, type, operation] as const),
);

describe('tool descriptions for models', () => {
	it.each(cases)('%s has one, shown only on the tool', (label, type, operation) => {
		const fields = toolDescriptions(type.description.properties, operation);
		const waits = waitingOperations().includes(label);
		expect(fields).toHaveLength(waits ? 2 : 1);
		for (const field of fields) {
			expect(String(field.default).length).toBeGreaterThan(60);
			expect(String(field.default).length).toBeLessThanOrEqual(400);
		}
		const text = (waiting: boolean) =>
			String(
				fields.find((field) => field.displayOptions?.show?.waitForCompletion?.[0] === waiting)
					?.default,
			);
		if (waits) {
			expect(text(false)).toMatch(/at once.*Callback URL/);
			expect(text(true)).toMatch(/waits/);
			expect(text(true)).not.toMatch(/Callback URL/);
		}
	});
});
