import type { IHttpRequestMethods, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

export interface ResumeRequest {
	method?: IHttpRequestMethods;
	body?: unknown;
	headers?: Record<string, string>;
	query?: Record<string, string>;
	/** Path suffix after `<resumeUrl>/`; matches the webhook description's `path`. */
	path?: string;
}

/** What a webhook answered itself (a refusal), rather than leaving the answer to n8n. */
export interface Answered {
	status?: number;
	body?: unknown;
}

/**
 * Puts the request where n8n's webhook endpoint puts it (header names lower-cased, as node's HTTP
 * server gives them), with a stand-in for express's response that records what the webhook answers.
 */
export function attachRequest(
	additionalData: IWorkflowExecuteAdditionalData,
	request: ResumeRequest,
): Answered {
	additionalData.httpRequest = {
		method: request.method ?? 'POST',
		body: request.body ?? {},
		headers: Object.fromEntries(
			Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
		),
		query: request.query ?? {},
		params: {},
	} as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
	const answered: Answered = {};
	additionalData.httpResponse = {
		status(code: number) {
			answered.status = code;
			return this;
		},
		json(body: unknown) {
			answered.body = body;
			return this;
		},
		send(body: unknown) {
			answered.body = body;
			return this;
		},
		end() {
			return this;
		},
	} as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
	return answered;
}
