import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export interface RequestSummary {
	method: string;
	path: string;
	itemIndex?: number;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The service reports failures three ways: an HTTP error status, the scheduling API's
 * `{ status: "failed", message, details }`, and review endpoints' `success: false`, which can
 * come with HTTP 200. All three must stop the item, so each is checked here, whatever the status.
 */
export function isServiceFailure(statusCode: number, body: unknown): boolean {
	if (statusCode >= 400) return true;
	if (!isObject(body)) return false;
	// Scraper status records also say `status: "failed"`, about the scrape: that is an answer,
	// recognisable by the `request_id` it describes, not a failed call.
	const schedulingFailure = body.status === 'failed' && body.request_id === undefined;
	return body.success === false || schedulingFailure;
}

function serviceHttpCode(statusCode: number, body: unknown): string {
	if (statusCode >= 400) return String(statusCode);
	if (isObject(body) && typeof body.status === 'number' && body.status >= 400) {
		return String(body.status);
	}
	return String(statusCode);
}

export function serviceError(
	node: INode,
	request: RequestSummary,
	statusCode: number,
	body: unknown,
): NodeApiError {
	const httpCode = serviceHttpCode(statusCode, body);
	const message =
		isObject(body) && typeof body.message === 'string' && body.message !== ''
			? body.message
			: `The service answered HTTP ${httpCode}`;
	const details = isObject(body) && typeof body.details === 'string' ? body.details : undefined;
	const where = `${request.method} ${request.path} answered HTTP ${httpCode}`;
	// Only the service's own body goes into the error: the request (and its auth header) never does.
	const response: JsonObject = isObject(body)
		? (body as JsonObject)
		: { body: typeof body === 'string' ? body.slice(0, 500) : null };
	return new NodeApiError(node, response, {
		message,
		description: details ? `${details} (${where})` : where,
		httpCode,
		itemIndex: request.itemIndex,
	});
}

export function transportError(
	node: INode,
	request: RequestSummary,
	reason: string,
	description: string,
): NodeApiError {
	return new NodeApiError(
		node,
		{ message: reason },
		{
			message: reason,
			description: `${description} (${request.method} ${request.path})`,
			itemIndex: request.itemIndex,
		},
	);
}

export function rateLimitError(
	node: INode,
	request: RequestSummary,
	label: string,
	refusals: number,
	waitedMs: number,
	requestsPerSecond: number,
): NodeApiError {
	const pacing =
		requestsPerSecond > 0
			? `the credential's Requests per Second is ${requestsPerSecond}`
			: "the credential's Requests per Second is 0 (no pacing)";
	return new NodeApiError(
		node,
		{ message: 'Too many requests' },
		{
			message: `The ${label} kept refusing requests for rate reasons (HTTP 429)`,
			description:
				`Refused ${refusals} times over ${Math.round(waitedMs / 1000)} s; ${pacing}. ` +
				'Other workflows, workers or tools may be using the same account: lower Requests per ' +
				`Second in the credential or run fewer items at once (${request.method} ${request.path})`,
			httpCode: '429',
			itemIndex: request.itemIndex,
		},
	);
}
