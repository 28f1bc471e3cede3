import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../dataObject';
import type { Decision } from './decide';

/**
 * Errors of a submission that was sent and whose answer was lost or was a server error: the service
 * may have accepted it, so nothing may send it again (not the transport, not n8n's Retry On Fail).
 */
const maybeAccepted = new WeakSet<Error>();

export function markMaybeAccepted<E extends Error>(error: E): E {
	maybeAccepted.add(error);
	return error;
}

export function mayHaveBeenAccepted(error: unknown): boolean {
	return error instanceof Error && maybeAccepted.has(error);
}

export interface RequestSummary {
	method: string;
	path: string;
	itemIndex?: number;
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

/** The error of a request the transport gave up on. */
export function attemptFailureError(
	node: INode,
	request: RequestSummary,
	label: string,
	{ outcome, attempts, mayHaveBeenAccepted }: Extract<Decision, { action: 'fail' }>,
): NodeApiError {
	const attemptsNote = attempts > 1 ? `, after ${attempts} attempts` : '';
	let error: NodeApiError;
	switch (outcome.kind) {
		case 'requestFailed':
			return transportError(node, request, 'The request to the service failed', outcome.message);
		case 'networkError':
			// The code stays out of the message: NodeApiError would swap such a message for a generic one.
			error = transportError(
				node,
				request,
				`Could not reach the ${label}`,
				`${outcome.code}. ` +
					(mayHaveBeenAccepted
						? 'The connection failed after the request was sent, so it was not repeated: the service may have queued it. Check before submitting again'
						: 'The connection could not be made') +
					attemptsNote,
			);
			break;
		case 'unreadable':
			error = transportError(
				node,
				request,
				`The ${label} sent a response that is not valid JSON (HTTP ${outcome.statusCode})`,
				(mayHaveBeenAccepted
					? 'The request reached the service and was not repeated: it may have been processed. Check before submitting again'
					: 'The response could not be read') + attemptsNote,
			);
			break;
		case 'serviceFailure':
			error = serviceError(node, request, outcome.statusCode, outcome.body);
			error.description = `${error.description ?? ''}${attemptsNote}`;
	}
	return mayHaveBeenAccepted ? markMaybeAccepted(error) : error;
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
