import type { IExecuteFunctions, INode } from 'n8n-workflow';

import {
	executionCustomData,
	requireExecutionCustomData,
} from '../../../nodes/shared/executionCustomData';

const node = { id: 'n1', name: 'Review Scraper' } as INode;

function context(extra: object): IExecuteFunctions {
	return { getNode: () => node, ...extra } as unknown as IExecuteFunctions;
}

function n8n2Store() {
	const data = new Map<string, string>();
	return { set: (k: string, v: string) => data.set(k, v), get: (k: string) => data.get(k) };
}

describe('execution custom data, detected rather than assumed', () => {
	it('is the context’s own store where n8n offers one (2.x)', () => {
		const store = n8n2Store();
		expect(executionCustomData(context({ customData: store }))).toBe(store);
	});

	it('is undefined on n8n 1.x, where the context has no customData', () => {
		expect(executionCustomData(context({}))).toBeUndefined();
	});

	it('is undefined where n8n 2.x throws for a context without an execution', () => {
		const ctx = context({});
		Object.defineProperty(ctx, 'customData', {
			get() {
				throw new Error('Cannot access customData: runExecutionData is not available');
			},
		});
		expect(executionCustomData(ctx)).toBeUndefined();
	});

	it('refuses Wait for Completion on n8n 1.x, naming the n8n version it needs', () => {
		expect(() => requireExecutionCustomData.call(context({}), 0)).toThrow(
			/^Wait for Completion needs n8n 2\.41\.1 or newer$/,
		);
	});
});
