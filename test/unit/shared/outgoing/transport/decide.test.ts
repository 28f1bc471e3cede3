import {
	outcomeOfResponse,
	outcomeOfThrown,
	type AttemptOutcome,
} from '../../../../../nodes/shared/outgoing/transport/attemptOutcome';
import { decide, type Decision } from '../../../../../nodes/shared/outgoing/transport/decide';
import { retryPolicy } from '../../../../../nodes/shared/outgoing/transport/retryPolicy';

/** What an attempt ran into, classified as the transport classifies it. */
const response = (statusCode: number, body: unknown, headers = {}) =>
	outcomeOfResponse({ statusCode, body, headers }, 'GET');
const submitted = (statusCode: number, body: unknown, headers = {}) =>
	outcomeOfResponse({ statusCode, body, headers }, 'POST');
const network = (code: string) =>
	outcomeOfThrown(
		Object.assign(new Error('outer'), { cause: Object.assign(new Error(), { code }) }),
	);

const ok = response(200, { success: true, job_id: 1 });
const serverError = (status: number, retryAfter?: string) =>
	response(
		status,
		{ status: 'failed', message: 'Unknown error' },
		retryAfter ? { 'retry-after': retryAfter } : {},
	);
const reset = network('ECONNRESET');
const refusedConnection = network('ECONNREFUSED');
const rateLimited = response(429, { message: 'Too many requests' }, { 'retry-after': '2' });

// With no jitter, the nth backoff is half of min(10 s, 500 ms × 2^(n-1)).
const noJitter = () => 0;
const backoff = (n: number) =>
	Math.min(retryPolicy.maxDelayMs, retryPolicy.baseDelayMs * 2 ** (n - 1)) / 2;
const retry = (afterMs: number): Decision => ({ action: 'retry', afterMs });
const fail = (attempts: number, mayHaveBeenAccepted: boolean) =>
	expect.objectContaining({ action: 'fail', attempts, mayHaveBeenAccepted });
const done = (answer: unknown) => ({ action: 'done', answer });

const SENT_CODES = [
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
];
const NOT_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

const notFound = response(404, { message: 'Not found' });
const answered = done({ success: true, job_id: 1 });
const gone = done({ success: true, results: [] });
const thrice = (outcome: AttemptOutcome) => [outcome, outcome, outcome];
const thrown = (message: string) => outcomeOfThrown(new Error(message));
const refusedIn200 = (status: number) => submitted(200, { success: false, status });
type Row = [string, string, AttemptOutcome, AttemptOutcome[], unknown];

// [what happened, method, the latest attempt's outcome, the earlier ones, the decision]
const table: Row[] = [
	['an answer', 'POST', ok, [], answered],
	['an answer after retries', 'GET', ok, [reset, serverError(500)], answered],
	['429 with Retry-After', 'POST', rateLimited, [], retry(2000)],
	['429 in a 200 body', 'POST', refusedIn200(429), [], retry(backoff(1))],
	['the 4th 429 in a row', 'POST', submitted(429, ''), thrice(rateLimited), retry(2000)],
	['429s are not attempts', 'GET', submitted(429, ''), Array(4).fill(reset), retry(backoff(1))],
	...SENT_CODES.flatMap((code): Row[] => [
		[`${code}, a read`, 'GET', network(code), [], retry(backoff(1))],
		[`${code}, a delete`, 'DELETE', network(code), [], retry(backoff(1))],
		[`${code}, a submission: may have been accepted`, 'POST', network(code), [], fail(1, true)],
	]),
	...NOT_SENT_CODES.map((code): Row => [code, 'POST', network(code), [], retry(backoff(1))]),
	['socket hang up is a reset', 'POST', thrown('socket hang up'), [], fail(1, true)],
	['not the network', 'GET', thrown('Invalid URL'), [], fail(1, false)],
	['not sent, last attempt', 'POST', refusedConnection, thrice(refusedConnection), fail(4, false)],
	['a reset read, last attempt', 'GET', reset, thrice(reset), fail(4, false)],
	[
		'429s between resets',
		'GET',
		reset,
		[rateLimited, rateLimited, reset, reset],
		retry(backoff(3)),
	],
	['bad JSON, a read', 'GET', response(200, '{"success": tr'), [], retry(backoff(1))],
	['bad JSON, a submission', 'POST', submitted(200, '<html>'), [], fail(1, true)],
	['bad JSON, a read, last attempt', 'GET', response(502, '<html>'), thrice(reset), fail(4, false)],
	['5xx, a read', 'GET', serverError(500), [serverError(500)], retry(backoff(2))],
	['5xx, a read, with Retry-After', 'GET', serverError(503, '5'), [], retry(5000)],
	['5xx, a read, Retry-After over the cap', 'GET', serverError(503, '120'), [], fail(1, false)],
	['5xx, a delete', 'DELETE', serverError(500), [], retry(backoff(1))],
	['5xx, a submission', 'POST', serverError(500), [], fail(1, true)],
	['5xx, a read, last attempt', 'GET', serverError(500), thrice(serverError(500)), fail(4, false)],
	['4xx, a read', 'GET', response(404, { success: false }), [], fail(1, false)],
	['4xx, a submission', 'POST', submitted(400, { status: 'failed' }), [], fail(1, false)],
	['error body in a 200', 'POST', refusedIn200(400), [], fail(1, false)],
	['DELETE 404 after a reset: gone', 'DELETE', notFound, [reset], gone],
	['DELETE 404 after a 5xx: gone', 'DELETE', notFound, [serverError(502)], gone],
	['DELETE 404 at the first attempt', 'DELETE', notFound, [], fail(1, false)],
	['DELETE 404 after one never sent', 'DELETE', notFound, [refusedConnection], fail(2, false)],
	['DELETE 404 after only 429s', 'DELETE', notFound, [rateLimited], fail(1, false)],
	['GET 404 after a reset', 'GET', notFound, [reset], fail(2, false)],
];

describe('decide: what follows one attempt, given the attempts before it', () => {
	it.each(table)('%s (%s)', (_case, method, outcome, earlier, expected) => {
		expect(decide(outcome, { method, earlier }, retryPolicy, noJitter)).toEqual(expected);
	});

	it('fails with the outcome the error is made of', () => {
		const outcome = serverError(500);
		const decision = decide(outcome, { method: 'POST', earlier: [] }, retryPolicy);
		expect(decision).toMatchObject({ outcome });
	});

	it('jitters a backoff between half and all of its step', () => {
		const pauseWith = (r: number) =>
			decide(reset, { method: 'GET', earlier: [reset] }, retryPolicy, () => r) as Decision;
		const pauses = [0, 0.5, 0.999].map((r) => (pauseWith(r) as { afterMs: number }).afterMs);
		expect(pauses).toEqual([500, 750, 999.5]);
	});
});
