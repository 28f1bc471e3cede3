/**
 * How the transport retries. Frozen: a test that needs other timings replaces this module
 * (jest.mock) rather than changing what every other test and user gets.
 */
export const retryPolicy = Object.freeze({
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 10_000,
	// A Retry-After longer than this is not waited out: the run would look hung.
	maxRetryAfterMs: 60_000,
	timeoutMs: 60_000,
	// 429s do not count as attempts: a request refused for the rate is sent again until this long
	// has passed since its first refusal (with the pauses the pacer adds, a refusal rarely repeats).
	rateLimitBudgetMs: 180_000,
});
