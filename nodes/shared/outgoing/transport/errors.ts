import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../json';

/**
 * Errors of a submission whose answer was lost or was a server error: the service may have carried
 * it out, so nothing may send it again (not the transport, not n8n's Retry On Fail).
 */
const possiblyCarriedOut = new WeakSet<Error>();

export function markPossiblyCarriedOut<E extends Error>(error: E): E {
	possiblyCarriedOut.add(error);
	return error;
}

export function mayHaveBeenCarriedOut(error: unknown): boolean {
	return error instanceof Error && possiblyCarriedOut.has(error);
}

export interface RequestSummary {
	method: string;
	path: string;
	itemIndex?: number;
}

/**
 * The service reports failures three ways: an HTTP error status, `{ status: "failed", message }`
 * (the scheduling API's error body, and a scraper or search refusing a submission, which can come
 * with HTTP 200 and a `request_id`), and review endpoints' `success: false`, which can come with
 * HTTP 200. All must stop the item, so each is checked here, whatever the status.
 */
export function isServiceFailure(statusCode: number, body: unknown, method = 'GET'): boolean {
	if (statusCode >= 400) return true;
	if (!isObject(body)) return false;
	if (body.success === false) return true;
	if (body.status !== 'failed') return false;
	// A status record read with GET says `status: "failed"` about the scrape it describes (its
	// `request_id`): that is an answer. A submission answered "failed" was refused, whatever else
	// the body holds, and no callback will ever come for it.
	return method !== 'GET' || body.request_id === undefined;
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
	const refusedRequest =
		isObject(body) && body.request_id !== undefined && body.request_id !== null
			? `, request ${String(body.request_id)}`
			: '';
	const where = `${request.method} ${request.path} answered HTTP ${httpCode}${refusedRequest}`;
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

/** Any error as the node error n8n shows, naming the item it is for, if any. */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}
