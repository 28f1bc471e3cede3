import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../json';

/**
 * What an attempt's failure or answer says about the request: refused for the rate (nothing was
 * queued), never sent, or sent with an answer that cannot be read.
 */

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

export const provesNotSent = (code: string) => NOT_SENT_CODES.has(code);

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
