import { NodeApiError } from 'n8n-workflow';

import { send, retryPolicy } from '../../../../../nodes/shared/outgoing/transport';

// The shipped policy is frozen; this file's copy has short pauses, and one test below narrows its
// rate-limit budget (`retryPolicy` here is that copy).
jest.mock('../../../../../nodes/shared/outgoing/transport/retryPolicy', () => {
	const actual = jest.requireActual('../../../../../nodes/shared/outgoing/transport/retryPolicy');
	return { retryPolicy: { ...actual.retryPolicy, baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 4 } };
});
import { serviceContext, type ServiceAnswer } from '../../../helpers';

const ok: ServiceAnswer = { statusCode: 200, body: { success: true, job_id: 1, status: 200 } };
const networkError = (code: string) =>
	Object.assign(new Error(`connect ${code}`), {
		cause: Object.assign(new Error('inner'), {
			code,
			config: { headers: { 'spiderman-token': 'secret-token' } },
		}),
	});
const tooMany = (retryAfter = '0'): ServiceAnswer => ({
	statusCode: 429,
	body: { status: 'failed', message: 'Too many requests', details: null },
	headers: { 'retry-after': retryAfter },
});
const serverError = (statusCode: number): ServiceAnswer => ({
	statusCode,
	body: { status: 'failed', message: 'Unknown error occured', details: null },
});
const notFound: ServiceAnswer = { statusCode: 404, body: { success: false, message: 'Not found' } };

/** Answers each request with the next entry of `script`, the last one over and over. */
const answering = (script: ServiceAnswer[], credentials = {}) =>
	serviceContext({
		answer: (_request, index) => script[Math.min(index, script.length - 1)],
		credentials,
	});
const call = (context: ReturnType<typeof answering>['context'], method = 'GET', itemIndex = 0) =>
	send.call(context, { api: 'review', method: method as 'GET', path: '/api/v2/x', itemIndex });

// The classification of each outcome is decide.test.ts's; the engine's fault matrix
// (test/engine/faults.test.ts) sends each injected fault through send. These are the sequences
// it cannot inject: [method, what the service does, attempts expected, answer or undefined].
const gone = { success: true, results: [] };
const slowDown = { statusCode: 200, body: { success: false, status: 429, message: 'Slow down' } };
const matrix: Array<[string, string, ServiceAnswer[], number, unknown]> = [
	['DELETE', '503 then OK', [serverError(503), ok], 2, ok.body],
	['DELETE', 'reset, then gone', [networkError('ECONNRESET'), notFound], 2, gone],
	['DELETE', 'a 429, then 404', [tooMany(), notFound], 2, undefined],
	['POST', 'connection refused then OK', [networkError('ECONNREFUSED'), ok], 2, ok.body],
	['POST', '429 four times then OK', [tooMany(), tooMany(), tooMany(), tooMany(), ok], 5, ok.body],
	['GET', '404', [notFound], 1, undefined],
	['GET', '429 inside an HTTP 200 body, then OK', [slowDown, ok], 2, ok.body],
	['POST', 'bare 429 that is not JSON, then OK', [{ statusCode: 429, body: 'No' }, ok], 2, ok.body],
];

describe('send', () => {
	it.each(matrix)('%s, %s', async (method, _case, script, attempts, answer) => {
		const { context, sent } = answering(script);
		if (answer) await expect(call(context, method)).resolves.toEqual(answer);
		else await expect(call(context, method)).rejects.toBeInstanceOf(NodeApiError);
		expect(sent).toHaveLength(attempts);
	});

	it('does not wait out a Retry-After longer than the rate-limit budget', async () => {
		const { context, sent } = answering([tooMany('3600'), ok]);
		await expect(call(context)).rejects.toThrow(
			'The Review Scraper API kept refusing requests for rate reasons (HTTP 429)',
		);
		expect(sent).toHaveLength(1);
	});

	it('retries a POST refused for the rate until the budget is spent, then names the cause', async () => {
		const policy = retryPolicy as { -readonly [K in keyof typeof retryPolicy]: number };
		const budget = policy.rateLimitBudgetMs;
		policy.rateLimitBudgetMs = 300;
		try {
			const { context, sent } = answering([{ statusCode: 429, body: 'Too Many Requests' }]);
			const started = Date.now();
			const error = (await call(context, 'POST', 2).catch((e: unknown) => e)) as NodeApiError;
			expect(error).toMatchObject({
				message: 'The Review Scraper API kept refusing requests for rate reasons (HTTP 429)',
				description: expect.stringMatching(/^Refused \d+ times over \d+ s; .*Requests per Second/),
				httpCode: '429',
				context: { itemIndex: 2 },
			});
			// Far more than the 4 attempts other failures get, and it stopped near the budget.
			expect(sent.length).toBeGreaterThan(retryPolicy.maxAttempts);
			expect(Date.now() - started).toBeLessThan(2000);
		} finally {
			policy.rateLimitBudgetMs = budget;
		}
	});

	it.each([
		[{ requestsPerSecond: -1 }, "The credential's Requests per Second is not valid"],
		[{ baseUrl: '' }, 'The credential has no valid Review Scraper API URL'],
	])('refuses the credential %j before sending', async (credentials, message) => {
		const { context, sent } = answering([ok], credentials);
		await expect(call(context, 'GET', 3)).rejects.toThrow(message);
		expect(sent).toHaveLength(0);
	});

	it('names the base URL field as the credential shows it', async () => {
		const { context } = answering([ok], { baseUrl: '' });
		await expect(call(context)).rejects.toMatchObject({
			description: 'Fill in "Base URL" of the credential with an http(s) address.',
		});
	});

	it('keeps the auth header out of network errors, and says a POST may have been queued', async () => {
		const { context } = answering([networkError('ECONNRESET')]);
		const error = (await call(context, 'POST').catch((e: unknown) => e)) as NodeApiError;
		expect(error.message).toBe('Could not reach the Review Scraper API');
		expect(error.description).toContain('ECONNRESET');
		expect(error.description).toContain('may have queued it');
		expect(JSON.stringify({ ...error, cause: error.cause })).not.toContain('secret-token');
	});

	it('sends JSON to the credential base URL without a doubled slash', async () => {
		const { context, sent } = answering([ok]);
		await send.call(context, {
			api: 'review',
			method: 'POST',
			path: '/api/v2/a',
			qs: { url: 'u' },
		});
		expect(sent[0]).toMatchObject({
			method: 'POST',
			url: 'http://127.0.0.1:9/api/v2/a',
			qs: { url: 'u' },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		});
	});
});
