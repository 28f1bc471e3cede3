import type { INode } from 'n8n-workflow';

export const testNode: INode = {
	id: 'node-under-test',
	name: 'Node Under Test',
	type: 'n8n-nodes-review-scraping.reviewScraper',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A stand-in for IExecuteFunctions that serves parameters per item: enough for pure helpers. */
export function parameterContext(itemsParameters: Array<Record<string, unknown>>) {
	return {
		getNode: () => testNode,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			const value = itemsParameters[itemIndex]?.[name];
			return value === undefined ? fallback : value;
		},
	};
}
