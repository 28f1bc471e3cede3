import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { isObject } from '../../json';
import { API_ADDRESSES, DEFAULT_REQUESTS_PER_SECOND, SECRET_FIELDS, type ApiName } from './apis';
import {
	isServiceFailure,
	markPossiblyCarriedOut,
	rateLimitError,
	serviceError,
	transportError,
	type RequestSummary,
} from './errors';
import { pacerFor } from './pacing';
import { redactEchoedSecrets } from '../../redact';
import { retryPolicy } from './retryPolicy';

export type RequestContext =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

/** A request to one of the service's APIs, as an operation builds it. */
export interface ServiceRequest {
	api: ApiName;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
}

export interface ApiRequestOptions extends ServiceRequest {
	/** The item the request is for, named in its errors. */
	itemIndex?: number;
}

// Codes that prove the connection was never made, so the service cannot have seen the request.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const NETWORK_CODES = new Set([
	...NOT_SENT_CODES,
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
]);

interface HttpResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

type Attempt = { kind: 'response'; response: HttpResponse } | { kind: 'network'; code: string };

function networkErrorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		if (typeof current.code === 'string' && NETWORK_CODES.has(current.code)) return current.code;
		if (typeof current.message === 'string' && /socket hang up/i.test(current.message)) {
			return 'ECONNRESET';
		}
		current = current.cause as typeof current;
	}
	return undefined;
}

function parseRetryAfter(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function backoffMs(attempt: number): number {
	const exponential = retryPolicy.baseDelayMs * 2 ** (attempt - 1);
	const capped = Math.min(retryPolicy.maxDelayMs, exponential);
	return capped / 2 + Math.random() * (capped / 2);
}

function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
	if (typeof body !== 'string') return { ok: true, value: body };
	if (body.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(body) };
	} catch {
		return { ok: false };
	}
}

/** A 429, whatever its body; or, on the review API's habit of errors in HTTP 200, its body's 429. */
function isRateLimited(statusCode: number, body: unknown): boolean {
	if (statusCode === 429) return true;
	const parsed = parseBody(body);
	return (
		parsed.ok &&
		isObject(parsed.value) &&
		parsed.value.success === false &&
		parsed.value.status === 429
	);
}

function requestsPerSecond(this: RequestContext, value: unknown, itemIndex?: number): number {
	if (value === undefined || value === null || value === '') return DEFAULT_REQUESTS_PER_SECOND;
	const rate = Number(value);
	if (!Number.isFinite(rate) || rate < 0) {
		throw new NodeOperationError(
			this.getNode(),
			"The credential's Requests per Second is not valid",
			{
				description: `"Requests per Second" must be a number of 0 or more (0: no pacing); it is ${String(value)}.`,
				itemIndex,
			},
		);
	}
	return rate;
}

function baseUrlOf(credentials: object | undefined, field: string): string | undefined {
	const baseUrl = String((credentials as IDataObject | undefined)?.[field] ?? '')
		.trim()
		.replace(/\/+$/, '');
	return /^https?:\/\//i.test(baseUrl) ? baseUrl : undefined;
}

/** The API's base URL from the credential; undefined when it is not an http(s) address. */
export async function serviceBaseUrl(
	this: RequestContext,
	api: ApiName,
): Promise<string | undefined> {
	const { credentialType, baseUrlField } = API_ADDRESSES[api];
	return baseUrlOf(await this.getCredentials(credentialType), baseUrlField);
}

/**
 * The single place where the package talks HTTP. Requests of one credential to one API are paced
 * to the credential's Requests per Second. Retries follow one rule: a request is sent again only
 * when doing so cannot create a second job. A 429 is a refusal (nothing was queued), so any request
 * is sent again after one, for as long as the rate-limit budget lasts. GET and DELETE are also
 * retried on 5xx, malformed bodies and network errors. A POST is otherwise retried only when the
 * connection was refused before anything was sent; a POST that failed after reaching the service
 * may have queued a job, so it is reported, not repeated.
 */
export async function apiRequest(
	this: RequestContext,
	options: ApiRequestOptions,
): Promise<unknown> {
	const node = this.getNode();
	const { credentialType, baseUrlField, label } = API_ADDRESSES[options.api];
	const credentials = await this.getCredentials(credentialType);
	const baseUrl = baseUrlOf(credentials, baseUrlField);
	if (baseUrl === undefined) {
		throw new NodeOperationError(node, `The credential has no valid ${label} URL`, {
			description: `Fill in "${label} URL" of the credential with an http(s) address.`,
			itemIndex: options.itemIndex,
		});
	}
	const rate = requestsPerSecond.call(this, credentials?.requestsPerSecond, options.itemIndex);
	const secret = String(credentials?.[SECRET_FIELDS[credentialType]] ?? '');
	const pacer = rate > 0 ? pacerFor(options.api, baseUrl, secret, rate) : undefined;

	const summary: RequestSummary = {
		method: options.method,
		path: options.path,
		itemIndex: options.itemIndex,
	};
	const idempotent = options.method === 'GET' || options.method === 'DELETE';
	// Set once an attempt may have reached the service and been acted on without us seeing the answer.
	let earlierAttemptMayHaveApplied = false;
	let firstRefusalAt: number | undefined;
	let refusals = 0;

	for (let attempt = 1; ;) {
		await pacer?.acquire();
		const outcome = await attemptOnce.call(this, credentialType, baseUrl, options, summary);

		if (
			outcome.kind === 'response' &&
			isRateLimited(outcome.response.statusCode, outcome.response.body)
		) {
			refusals++;
			const now = Date.now();
			firstRefusalAt ??= now;
			const retryAfter = parseRetryAfter(outcome.response.headers['retry-after']);
			const pause = pacer?.refused(retryAfter) ?? retryAfter ?? backoffMs(refusals);
			if (now + pause - firstRefusalAt > retryPolicy.rateLimitBudgetMs) {
				throw rateLimitError(node, summary, label, refusals, now - firstRefusalAt, rate);
			}
			// The pacer holds back every request of this credential for the pause; without one, wait here.
			if (!pacer) await sleep(pause);
			continue;
		}
		pacer?.accepted();

		const isLastAttempt = attempt >= retryPolicy.maxAttempts;
		const attemptsNote = attempt > 1 ? `, after ${attempt} attempts` : '';
		attempt++;

		if (outcome.kind === 'network') {
			const retryable = idempotent || NOT_SENT_CODES.has(outcome.code);
			if (retryable && !isLastAttempt) {
				if (!NOT_SENT_CODES.has(outcome.code)) earlierAttemptMayHaveApplied = true;
				await sleep(backoffMs(attempt - 1));
				continue;
			}
			const maybeProcessed = !idempotent && !NOT_SENT_CODES.has(outcome.code);
			// The code stays out of the message: NodeApiError would swap such a message for a generic one.
			const error = transportError(
				node,
				summary,
				`Could not reach the ${label}`,
				`${outcome.code}. ` +
					(maybeProcessed
						? 'The connection failed after the request was sent, so it was not repeated: the service may have queued it. Check before submitting again'
						: 'The connection could not be made') +
					attemptsNote,
			);
			throw maybeProcessed ? markPossiblyCarriedOut(error) : error;
		}

		const { statusCode, headers } = outcome.response;
		const parsed = parseBody(outcome.response.body);
		if (!parsed.ok) {
			if (idempotent && !isLastAttempt) {
				earlierAttemptMayHaveApplied = true;
				await sleep(backoffMs(attempt - 1));
				continue;
			}
			const error = transportError(
				node,
				summary,
				`The ${label} sent a response that is not valid JSON (HTTP ${statusCode})`,
				(idempotent
					? 'The response could not be read'
					: 'The request reached the service and was not repeated: it may have been processed. Check before submitting again') +
					attemptsNote,
			);
			throw idempotent ? error : markPossiblyCarriedOut(error);
		}

		// Every answer can echo a callback address; none may carry its secret into an item or error.
		const body = redactEchoedSecrets(parsed.value);
		if (!isServiceFailure(statusCode, body, options.method)) return body;

		// A delete whose earlier attempt reached the service finds the thing already gone: that is
		// the outcome the user asked for, not an error.
		if (options.method === 'DELETE' && statusCode === 404 && earlierAttemptMayHaveApplied) {
			return { success: true, results: [] };
		}

		if (idempotent && statusCode >= 500 && !isLastAttempt) {
			const retryAfter = parseRetryAfter(headers['retry-after']);
			if (retryAfter === undefined || retryAfter <= retryPolicy.maxRetryAfterMs) {
				earlierAttemptMayHaveApplied = true;
				await sleep(retryAfter ?? backoffMs(attempt - 1));
				continue;
			}
		}
		const error = serviceError(node, summary, statusCode, body);
		if (attempt > 2) error.description = `${error.description ?? ''}${attemptsNote}`;
		// A server error can come after the work was done: a submission answered so is not repeated.
		throw !idempotent && statusCode >= 500 ? markPossiblyCarriedOut(error) : error;
	}
}

async function attemptOnce(
	this: RequestContext,
	credentialType: string,
	baseUrl: string,
	options: ApiRequestOptions,
	summary: RequestSummary,
): Promise<Attempt> {
	try {
		const response = (await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
			method: options.method,
			url: `${baseUrl}${options.path}`,
			qs: options.qs,
			body: options.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: retryPolicy.timeoutMs,
		})) as HttpResponse;
		return { kind: 'response', response };
	} catch (error) {
		const code = networkErrorCode(error);
		if (code) return { kind: 'network', code };
		// The caught error can carry the outgoing request, auth header included: only its message goes on.
		throw transportError(
			this.getNode(),
			summary,
			`The request to the service failed`,
			(error as Error).message ?? 'Unknown error',
		);
	}
}
