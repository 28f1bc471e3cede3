import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { send, retryPolicy } from '../../../../../nodes/shared/outgoing/transport';

// The shipped policy is frozen; this file's copy has short pauses, and one test below narrows its
// rate-limit budget (`retryPolicy` here is that copy).
jest.mock('../../../../../nodes/shared/outgoing/transport/retryPolicy', () => {
	const actual = jest.requireActual('../../../../../nodes/shared/outgoing/transport/retryPolicy');
	return { retryPolicy: { ...actual.retryPolicy, baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 4 } };
});
import { testNode } from '../../../helpers';

type Scripted =
	{ status: number; body: unknown; headers?: Record<string, string> } | { networkError: string };

const ok: Scripted = { status: 200, body: { success: true, job_id: 1, status: 200 } };

function contextAnswering(script: Scripted[]) {
	const sent: IHttpRequestOptions[] = [];
	const context = {
		getNode: () => testNode,
		// Pacing is tested on its own below; here it would only slow the retries down.
		getCredentials: async () => ({
			apiToken: 'secret-token',
			baseUrl: 'http://127.0.0.1:9/',
			requestsPerSecond: 0,
		}),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				sent.push(options);
				const next = script[Math.min(sent.length - 1, script.length - 1)];
				if ('networkError' in next) {
					throw Object.assign(new Error(`connect ${next.networkError}`), {
						cause: Object.assign(new Error('inner'), {
							code: next.networkError,
							config: { headers: { 'spiderman-token': 'secret-token' } },
						}),
					});
				}
				return { statusCode: next.status, body: next.body, headers: next.headers ?? {} };
			},
		},
	};
	return { context: context as unknown as IExecuteFunctions, sent };
}

const tooMany = (retryAfter = '0'): Scripted => ({
	status: 429,
	body: { status: 'failed', message: 'Too many requests', details: null },
	headers: { 'retry-after': retryAfter },
});
const serverError = (status: number): Scripted => ({
	status,
	body: { status: 'failed', message: 'Unknown error occured', details: null },
});
const malformed: Scripted = { status: 200, body: '{"success": tr' };

// [method, what the service does, attempts expected, succeeds]
const matrix: Array<[string, string, Scripted[], number, boolean]> = [
	['GET', '429 then OK', [tooMany(), ok], 2, true],
	['GET', '500 twice then OK', [serverError(500), serverError(500), ok], 3, true],
	['GET', '503 then OK', [serverError(503), ok], 2, true],
	['GET', 'connection reset then OK', [{ networkError: 'ECONNRESET' }, ok], 2, true],
	['GET', 'timeout then OK', [{ networkError: 'ETIMEDOUT' }, ok], 2, true],
	['GET', 'malformed JSON then OK', [malformed, ok], 2, true],
	['GET', '500 forever', [serverError(500)], 4, false],
	['GET', '404', [{ status: 404, body: { success: false, message: 'Job not found' } }], 1, false],
	['DELETE', '503 then OK', [serverError(503), ok], 2, true],
	['POST', '429 then OK (refused before processing)', [tooMany(), ok], 2, true],
	['POST', 'connection refused then OK', [{ networkError: 'ECONNREFUSED' }, ok], 2, true],
	['POST', '500 (may have been processed)', [serverError(500), ok], 1, false],
	['POST', '503 (may have been processed)', [serverError(503), ok], 1, false],
	[
		'POST',
		'connection reset (may have been processed)',
		[{ networkError: 'ECONNRESET' }, ok],
		1,
		false,
	],
	['POST', 'malformed JSON (was processed)', [malformed, ok], 1, false],
	[
		'POST',
		'HTTP 200 with success:false',
		[{ status: 200, body: { success: false, status: 400, message: 'Bad' } }],
		1,
		false,
	],
	[
		'POST',
		'429 three times then OK (429s are not attempts)',
		[tooMany(), tooMany(), tooMany(), tooMany(), ok],
		5,
		true,
	],
	[
		'GET',
		'HTTP 200 with success:false and status 429, then OK',
		[{ status: 200, body: { success: false, status: 429, message: 'Slow down' } }, ok],
		2,
		true,
	],
	[
		'POST',
		'bare 429 with a body that is not JSON, then OK',
		[{ status: 429, body: 'Too Many Requests' }, ok],
		2,
		true,
	],
];

describe('transport retry policy', () => {
	it.each(matrix)(
		'%s, %s: %d attempt(s), success %s',
		async (method, _case, script, attempts, succeeds) => {
			const { context, sent } = contextAnswering(script);
			const call = send.call(context, {
				api: 'review',
				method: method as 'GET',
				path: '/api/v2/responds/jobs',
			});
			if (succeeds) await expect(call).resolves.toEqual(ok.body);
			else await expect(call).rejects.toBeInstanceOf(NodeApiError);
			expect(sent).toHaveLength(attempts);
		},
	);

	const notFound: Scripted = {
		status: 404,
		body: { success: false, message: 'Schedule not found' },
	};
	it.each<[string, Scripted[]]>([
		['connection reset', [{ networkError: 'ECONNRESET' }, notFound]],
		['malformed answer', [malformed, notFound]],
		['HTTP 500', [serverError(500), notFound]],
	])(
		'counts a DELETE as done when its retry after a %s finds the thing gone',
		async (_case, script) => {
			const { context, sent } = contextAnswering(script);
			await expect(
				send.call(context, { api: 'review', method: 'DELETE', path: '/api/v1/schedules/7' }),
			).resolves.toEqual({ success: true, results: [] });
			expect(sent).toHaveLength(2);
		},
	);

	it.each<[string, Scripted[]]>([
		['on the first attempt', [notFound]],
		['after a refused connection', [{ networkError: 'ECONNREFUSED' }, notFound]],
		['after a 429', [tooMany(), notFound]],
	])('reports a DELETE 404 %s: the service never acted on it', async (_case, script) => {
		const { context } = contextAnswering(script);
		await expect(
			send.call(context, { api: 'review', method: 'DELETE', path: '/api/v1/schedules/7' }),
		).rejects.toThrow(/not found/i);
	});

	it('waits what Retry-After asks before retrying', async () => {
		const { context, sent } = contextAnswering([tooMany('1'), ok]);
		const started = Date.now();
		await send.call(context, { api: 'review', method: 'GET', path: '/x' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
		expect(sent).toHaveLength(2);
	});

	it('does not wait out a Retry-After longer than the rate-limit budget', async () => {
		const { context, sent } = contextAnswering([tooMany('3600'), ok]);
		await expect(send.call(context, { api: 'review', method: 'GET', path: '/x' })).rejects.toThrow(
			'The Review Scraper API kept refusing requests for rate reasons (HTTP 429)',
		);
		expect(sent).toHaveLength(1);
	});

	it('retries a POST refused for the rate until the budget is spent, then names the cause', async () => {
		const policy = retryPolicy as { -readonly [K in keyof typeof retryPolicy]: number };
		const budget = policy.rateLimitBudgetMs;
		policy.rateLimitBudgetMs = 300;
		try {
			const { context, sent } = contextAnswering([{ status: 429, body: 'Too Many Requests' }]);
			const started = Date.now();
			const error = (await send
				.call(context, {
					api: 'review',
					method: 'POST',
					path: '/api/v2/profiles/add',
					itemIndex: 2,
				})
				.catch((e: unknown) => e)) as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				'The Review Scraper API kept refusing requests for rate reasons (HTTP 429)',
			);
			expect(error.description).toMatch(/^Refused \d+ times over \d+ s; .*Requests per Second/);
			expect(error.httpCode).toBe('429');
			expect(error.context.itemIndex).toBe(2);
			// Far more than the 4 attempts other failures get, and it stopped near the budget.
			expect(sent.length).toBeGreaterThan(retryPolicy.maxAttempts);
			expect(Date.now() - started).toBeLessThan(2000);
		} finally {
			policy.rateLimitBudgetMs = budget;
		}
	});

	it('refuses a Requests per Second that is not a number of 0 or more, before sending', async () => {
		const { context, sent } = contextAnswering([ok]);
		(context as unknown as { getCredentials: () => Promise<object> }).getCredentials =
			async () => ({ apiToken: 't', baseUrl: 'http://127.0.0.1:9', requestsPerSecond: -1 });
		await expect(
			send.call(context, { api: 'review', method: 'GET', path: '/x', itemIndex: 3 }),
		).rejects.toThrow("The credential's Requests per Second is not valid");
		expect(sent).toHaveLength(0);
	});

	it('names the endpoint, the HTTP code and the service message, without the token', async () => {
		const { context } = contextAnswering([serverError(500)]);
		const error = (await send
			.call(context, {
				api: 'review',
				method: 'GET',
				path: '/api/v2/responds/jobs/5',
				itemIndex: 1,
			})
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error.message).toBe('Unknown error occured');
		expect(error.description).toContain('GET /api/v2/responds/jobs/5 answered HTTP 500');
		expect(error.description).toContain('after 4 attempts');
		expect(error.httpCode).toBe('500');
		expect(error.context.itemIndex).toBe(1);
		expect(JSON.stringify({ ...error, message: error.message })).not.toContain('secret-token');
	});

	it('keeps the auth header out of network errors', async () => {
		const { context } = contextAnswering([{ networkError: 'ECONNRESET' }]);
		const error = (await send
			.call(context, { api: 'review', method: 'POST', path: '/api/v2/profiles/add' })
			.catch((e: unknown) => e)) as NodeApiError;
		expect(error.message).toBe('Could not reach the Review Scraper API');
		expect(error.description).toContain('ECONNRESET');
		expect(error.description).toContain('may have queued it');
		expect(JSON.stringify({ ...error, cause: error.cause })).not.toContain('secret-token');
	});

	it('sends JSON to the credential base URL without a doubled slash', async () => {
		const { context, sent } = contextAnswering([ok]);
		await send.call(context, {
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			qs: { url: 'u' },
		});
		expect(sent[0]).toMatchObject({
			method: 'POST',
			url: 'http://127.0.0.1:9/api/v2/profiles/add',
			qs: { url: 'u' },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
	});

	it('refuses a credential without a base URL before sending', async () => {
		const { context, sent } = contextAnswering([ok]);
		(context as unknown as { getCredentials: () => Promise<object> }).getCredentials =
			async () => ({
				apiToken: 't',
				baseUrl: '',
			});
		const refusal = send.call(context, { api: 'review', method: 'GET', path: '/x' });
		await expect(refusal).rejects.toThrow('The credential has no valid Review Scraper API URL');
		// The hint names the field as the credential shows it.
		await expect(refusal).rejects.toMatchObject({
			description: 'Fill in "Base URL" of the credential with an http(s) address.',
		});
		expect(sent).toHaveLength(0);
	});
});
