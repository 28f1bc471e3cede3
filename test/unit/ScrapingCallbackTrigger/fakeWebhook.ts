import type { Readable } from 'node:stream';

import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { ScrapingCallbackTrigger } from '../../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';

/** One delivery of each kind, as the service posts it. */
export const samples: Record<string, IDataObject> = {
	reviewJob: { job_id: 41, status: 'complete', success: true, reviews: [{ review_id: 'r1' }] },
	productSearch: {
		request_id: 'p-1',
		status: 'success',
		credits_used: 3,
		results: [{ unique_id: 'u', source: 'shop', full_price: 3 }],
		pagination: { current_page: 1, page_size: 100, total_pages: 1 },
		summary: { total_results: 1, products_per_source: [{ source: 'shop', count: 1 }] },
	},
	photoSearch: {
		request_id: 'ph-1',
		status: 'completed',
		request_metadata: { keyword: '#pizza', callback_url: 'x', external_identifier: null },
		results: [{ post_id: '1' }],
		summary: { total_posts: 1, unique_user_count: 1 },
		pagination: { total: 1, page: 1, per_page: 1, total_pages: 1 },
	},
	socialScrape: {
		request_id: 's-1',
		status: 'completed',
		request_metadata: {
			url: 'https://social.example.com/p/1',
			callback_url: 'x',
			get_comments: false,
		},
		results: [{ post_id: '1' }],
		summary: null,
		pagination: null,
	},
	videoRequest: {
		request_id: 'v-1',
		created_at: '2026-01-01T00:00:00+00:00',
		updated_at: '2026-01-01T00:01:00+00:00',
		status: 'completed',
		credits_used: 1,
		request_metadata: {
			url: 'https://video.example.com/v/1',
			callback_url: 'x',
			get_comments: true,
		},
	},
	reviewIndex: { request_id: 'ri-1', status: 'completed', endpoint: 'profiles', results: [] },
	unknown: { hello: 'world' },
};

export interface FakeRequest {
	body?: unknown;
	query?: IDataObject;
	headers?: IDataObject;
	parameters?: IDataObject;
	/** The request as n8n leaves it when it did not read the body (Receive Large Deliveries). */
	stream?: Readable & { headers: IDataObject };
}

let workflowCounter = 0;
const trigger = new ScrapingCallbackTrigger();

/**
 * Runs the Scraping Callback Trigger's webhook on `request`. One workflow per static data object,
 * as in n8n: the remembered deliveries belong to it.
 */
export async function receive(request: FakeRequest, staticData: IDataObject = {}) {
	const workflowId = String((staticData.workflowId ??= `workflow-${++workflowCounter}`));
	const answered: { status?: number; body?: unknown } = {};
	const parameters: IDataObject = {
		kinds: [],
		requireSecret: false,
		options: {},
		...request.parameters,
	};
	const context = {
		getResponseObject: () => ({
			status(code: number) {
				answered.status = code;
				return this;
			},
			json(body: unknown) {
				answered.body = body;
				return this;
			},
		}),
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
		getHeaderData: () => request.headers ?? {},
		getQueryData: () => request.query ?? {},
		getBodyData: () => request.body,
		// As n8n gives it after parsing the body itself (no Receive Large Deliveries).
		getRequestObject: () =>
			request.stream ?? { body: request.body, headers: request.headers ?? {} },
		getWorkflowStaticData: () => staticData,
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: 'callback-trigger', typeVersion: 1 }),
	} as unknown as IWebhookFunctions;
	const result: IWebhookResponseData = await trigger.webhook.call(context);
	const items = (result.workflowData?.[0] ?? []).map(({ json }) => json);
	return { result, answered, staticData, items };
}
