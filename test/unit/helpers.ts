import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

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

export type ServiceAnswer =
	{ statusCode: number; body: unknown; headers?: Record<string, string> } | Error;

/**
 * A node's context whose requests reach a stand-in for the service: each request is recorded in
 * `sent`, then answered by `answer` (an Error is thrown as the network would). No pacing unless the
 * credentials ask for it; parameters are the node's own, the same for every item.
 */
export function serviceContext(setup: {
	answer: (request: IHttpRequestOptions, index: number) => ServiceAnswer | Promise<ServiceAnswer>;
	items?: IDataObject[];
	node?: Partial<INode>;
	continueOnFail?: boolean;
	credentials?: IDataObject;
	extra?: object;
}) {
	const sent: IHttpRequestOptions[] = [];
	const node = { ...testNode, ...setup.node };
	const context = {
		getNode: () => node,
		getInputData: () => (setup.items ?? [{}]).map((json) => ({ json })),
		continueOnFail: () => setup.continueOnFail ?? false,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			node.parameters[name] ?? fallback,
		getCredentials: async () => ({
			apiToken: 'secret-token',
			baseUrl: 'http://127.0.0.1:9/',
			requestsPerSecond: 0,
			...setup.credentials,
		}),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: IHttpRequestOptions) => {
				const answer = await setup.answer(request, sent.push(request) - 1);
				if (answer instanceof Error) throw answer;
				return { headers: {}, ...answer };
			},
		},
		...setup.extra,
	} as unknown as IExecuteFunctions;
	return { context, sent };
}

/** The number in the query of a request sent by a probe operation, standing for its item. */
export const itemOf = (request: IHttpRequestOptions) => Number((request.qs as IDataObject).i);
