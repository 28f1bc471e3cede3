import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../dataObject';
import { redactEchoedSecrets } from '../../redact';

/** What one HTTP attempt came to, read before anything decides whether to try again. */
export type AttemptOutcome =
	/** The service answered and did what was asked (its body, secrets redacted). */
	| { kind: 'answer'; body: unknown }
	/** Refused for the rate (HTTP 429, or the review API's 429 inside an HTTP 200): nothing was queued. */
	| { kind: 'rateLimited'; retryAfterMs?: number }
	/** The connection failed; `sent` says whether the request may have reached the service. */
	| { kind: 'networkError'; code: string; sent: boolean }
	/** The request could not be made at all (not a network failure): only its message goes on. */
	| { kind: 'requestFailed'; message: string }
	/** An answer came that is not JSON. */
	| { kind: 'unreadable'; statusCode: number }
	/** The service said it failed (HTTP error status, or an error body in HTTP 200). */
	| { kind: 'serviceFailure'; statusCode: number; body: unknown; retryAfterMs?: number };

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

/** The network failure's code, found anywhere in the cause chain; undefined for any other error. */
export function networkErrorCode(error: unknown): string | undefined {
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

export function parseRetryAfter(headers: IDataObject): number | undefined {
	const value = headers['retry-after'];
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
	if (typeof body !== 'string') return { ok: true, value: body };
	if (body.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(body) };
	} catch {
		return { ok: false };
	}
}

/** A 429, whatever its body; or, on the review API's habit of errors in HTTP 200, its body's 429. */
export function isRateLimited(statusCode: number, body: unknown): boolean {
	if (statusCode === 429) return true;
	const parsed = parseBody(body);
	return (
		parsed.ok &&
		isObject(parsed.value) &&
		parsed.value.success === false &&
		parsed.value.status === 429
	);
}

/** An attempt whose HTTP call threw. The caught error can carry the outgoing request, auth header included: only its message goes on. */
export function outcomeOfThrown(error: unknown): AttemptOutcome {
	const code = networkErrorCode(error);
	if (code) return { kind: 'networkError', code, sent: !NOT_SENT_CODES.has(code) };
	return { kind: 'requestFailed', message: (error as Error)?.message ?? 'Unknown error' };
}

export function outcomeOfResponse(
	response: { statusCode: number; headers: IDataObject; body: unknown },
	method: string,
): AttemptOutcome {
	const { statusCode, headers } = response;
	if (isRateLimited(statusCode, response.body)) {
		return { kind: 'rateLimited', retryAfterMs: parseRetryAfter(headers) };
	}
	const parsed = parseBody(response.body);
	if (!parsed.ok) return { kind: 'unreadable', statusCode };
	// Every answer can echo a callback address; none may carry its secret into an item or error.
	const body = redactEchoedSecrets(parsed.value);
	if (!isServiceFailure(statusCode, body, method)) return { kind: 'answer', body };
	return { kind: 'serviceFailure', statusCode, body, retryAfterMs: parseRetryAfter(headers) };
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
