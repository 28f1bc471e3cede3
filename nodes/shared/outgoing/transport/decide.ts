import type { AttemptOutcome } from './attemptOutcome';
import type { retryPolicy } from './retryPolicy';

export type RetryPolicy = typeof retryPolicy;

/** What is known of a request before deciding on its latest attempt. */
export interface History {
	method: string;
	/** The outcomes of its earlier attempts, oldest first (429s included). */
	earlier: readonly AttemptOutcome[];
}

export type Decision =
	| { action: 'done'; answer: unknown }
	| { action: 'retry'; afterMs: number }
	| {
			action: 'fail';
			/** The outcome the error is made of. */
			outcome: Exclude<AttemptOutcome, { kind: 'answer' | 'rateLimited' }>;
			/** Attempts made, 429s not counted. */
			attempts: number;
			/** It was sent and its answer lost or failed: the service may have accepted it. */
			mayHaveBeenAccepted: boolean;
	  };

/**
 * Reading and deleting can be repeated without a second effect; a submission sent twice can be a
 * second, billed job.
 */
export const isIdempotent = (method: string) => method === 'GET' || method === 'DELETE';

/** An attempt that may have reached the service and been acted on without us seeing the answer. */
const mayHaveReachedTheService = (outcome: AttemptOutcome) =>
	(outcome.kind === 'networkError' && outcome.sent) ||
	outcome.kind === 'unreadable' ||
	(outcome.kind === 'serviceFailure' && outcome.statusCode >= 500);

/** Exponential, capped, with jitter: the `n`th pause of a request. */
export function backoffMs(n: number, policy: RetryPolicy, random: () => number): number {
	const capped = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
	return capped / 2 + random() * (capped / 2);
}

/**
 * One rule: a request is sent again only when doing so cannot create a second job. A 429 is a
 * refusal (nothing was queued), so any request is sent again after one; the caller keeps the
 * rate-limit budget, which is time, not attempts. GET and DELETE are also retried on 5xx,
 * unreadable bodies and network errors. A POST is otherwise retried only when the connection was
 * refused before anything was sent; a POST that failed after reaching the service may have queued
 * a job, so it is reported, not repeated.
 */
export function decide(
	outcome: AttemptOutcome,
	history: History,
	policy: RetryPolicy,
	random: () => number = Math.random,
): Decision {
	if (outcome.kind === 'answer') return { action: 'done', answer: outcome.body };
	const refusals = history.earlier.filter(({ kind }) => kind === 'rateLimited').length;
	if (outcome.kind === 'rateLimited') {
		return {
			action: 'retry',
			afterMs: outcome.retryAfterMs ?? backoffMs(refusals + 1, policy, random),
		};
	}

	const attempts = history.earlier.length - refusals + 1;
	const idempotent = isIdempotent(history.method);
	const attemptsLeft = attempts < policy.maxAttempts;
	const retry = (afterMs = backoffMs(attempts, policy, random)): Decision => ({
		action: 'retry',
		afterMs,
	});
	const fail = (mayHaveBeenAccepted: boolean): Decision => ({
		action: 'fail',
		outcome,
		attempts,
		mayHaveBeenAccepted,
	});

	switch (outcome.kind) {
		case 'requestFailed':
			return fail(false);
		case 'networkError':
			if ((idempotent || !outcome.sent) && attemptsLeft) return retry();
			return fail(!idempotent && outcome.sent);
		case 'unreadable':
			return idempotent && attemptsLeft ? retry() : fail(!idempotent);
		case 'serviceFailure': {
			const { statusCode, retryAfterMs } = outcome;
			// A delete whose earlier attempt reached the service finds the thing already gone: that is
			// the outcome the user asked for, not an error.
			if (
				history.method === 'DELETE' &&
				statusCode === 404 &&
				history.earlier.some(mayHaveReachedTheService)
			) {
				return { action: 'done', answer: { success: true, results: [] } };
			}
			const waitable = retryAfterMs === undefined || retryAfterMs <= policy.maxRetryAfterMs;
			if (idempotent && statusCode >= 500 && attemptsLeft && waitable) return retry(retryAfterMs);
			// A server error can come after the work was done: a submission answered so is not repeated.
			return fail(!idempotent && statusCode >= 500);
		}
	}
}
