import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { redactEchoedSecrets } from '../../redact';
import { API_ADDRESSES, requireBaseUrl, type RequestContext, type ServiceRequest } from './apis';
import {
	isServiceFailure,
	markPossiblyCarriedOut,
	mayHaveBeenCarriedOut,
	rateLimitError,
	serviceError,
	toNodeError,
	transportError,
	type RequestSummary,
} from './errors';
import { pacerOf } from './pacing';
import {
	isRateLimited,
	networkErrorCode,
	parseBody,
	parseRetryAfter,
	provesNotSent,
} from './refusals';
import { notSentAgain, type RetryMemory } from './retryMemory';
import { retryPolicy } from './retryPolicy';

export interface SendOptions extends ServiceRequest {
	/** The item the request is for, named in its errors and the key of its retry memory. */
	itemIndex?: number;
}

interface HttpResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/**
 * Reading and deleting can be repeated without a second effect; a submission sent twice can be a
 * second, billed job.
 */
const isIdempotent = (method: string) => method === 'GET' || method === 'DELETE';

function backoffMs(attempt: number): number {
	const exponential = retryPolicy.baseDelayMs * 2 ** (attempt - 1);
	const capped = Math.min(retryPolicy.maxDelayMs, exponential);
	return capped / 2 + Math.random() * (capped / 2);
}

/**
 * The one way a request reaches the service, and the only place the package talks HTTP. With a
 * retry memory (n8n's Retry On Fail runs `execute()` again on the same input), a submission an
 * earlier try got acknowledged is answered from it and never sent again. Requests of one credential
 * to one API are paced to its Requests per Second. Retries follow one rule: a request is sent again
 * only when doing so cannot create a second job. A 429 is a refusal (nothing was queued), so any
 * request is sent again after one, for as long as the rate-limit budget lasts. GET and DELETE are
 * also retried on 5xx, malformed bodies and network errors. A POST is otherwise retried only when
 * the connection was refused before anything was sent; a POST that failed after reaching the
 * service may have queued a job, so it is reported, not repeated.
 */
export async function send(
	this: RequestContext,
	options: SendOptions,
	memory?: RetryMemory,
): Promise<unknown> {
	const itemIndex = options.itemIndex ?? 0;
	const earlier = memory?.recall(itemIndex, options);
	if (earlier?.landed === true) return earlier.answer;
	if (earlier) throw notSentAgain(earlier.error);

	const node = this.getNode();
	const { credentialType, label } = API_ADDRESSES[options.api];
	const credentials = await this.getCredentials(credentialType);
	const baseUrl = requireBaseUrl(node, options.api, credentials, options.itemIndex);
	const { pacer, rate } = pacerOf(node, options.api, baseUrl, credentials, options.itemIndex);

	const summary: RequestSummary = {
		method: options.method,
		path: options.path,
		itemIndex: options.itemIndex,
	};
	const idempotent = isIdempotent(options.method);
	// Set once an attempt may have reached the service and been acted on without us seeing the answer.
	let earlierAttemptMayHaveApplied = false;
	let firstRefusalAt: number | undefined;
	let refusals = 0;
	let answer: unknown;

	try {
		for (let attempt = 1; ;) {
			await pacer?.acquire();
			let response: HttpResponse | undefined;
			let networkCode: string | undefined;
			try {
				response = (await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
					method: options.method,
					url: `${baseUrl}${options.path}`,
					qs: options.qs,
					body: options.body,
					json: true,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					timeout: retryPolicy.timeoutMs,
				})) as HttpResponse;
			} catch (error) {
				networkCode = networkErrorCode(error);
				// The caught error can carry the outgoing request, auth header included: only its message goes on.
				if (!networkCode) {
					throw transportError(
						node,
						summary,
						'The request to the service failed',
						(error as Error).message ?? 'Unknown error',
					);
				}
			}

			if (response && isRateLimited(response.statusCode, response.body)) {
				refusals++;
				const now = Date.now();
				firstRefusalAt ??= now;
				const retryAfter = parseRetryAfter(response.headers);
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

			if (!response) {
				const code = networkCode!;
				if ((idempotent || provesNotSent(code)) && !isLastAttempt) {
					if (!provesNotSent(code)) earlierAttemptMayHaveApplied = true;
					await sleep(backoffMs(attempt - 1));
					continue;
				}
				const maybeProcessed = !idempotent && !provesNotSent(code);
				// The code stays out of the message: NodeApiError would swap such a message for a generic one.
				const failure = transportError(
					node,
					summary,
					`Could not reach the ${label}`,
					`${code}. ` +
						(maybeProcessed
							? 'The connection failed after the request was sent, so it was not repeated: the service may have queued it. Check before submitting again'
							: 'The connection could not be made') +
						attemptsNote,
				);
				throw maybeProcessed ? markPossiblyCarriedOut(failure) : failure;
			}

			const { statusCode, headers } = response;
			const parsed = parseBody(response.body);
			if (!parsed.ok) {
				if (idempotent && !isLastAttempt) {
					earlierAttemptMayHaveApplied = true;
					await sleep(backoffMs(attempt - 1));
					continue;
				}
				const failure = transportError(
					node,
					summary,
					`The ${label} sent a response that is not valid JSON (HTTP ${statusCode})`,
					(idempotent
						? 'The response could not be read'
						: 'The request reached the service and was not repeated: it may have been processed. Check before submitting again') +
						attemptsNote,
				);
				throw idempotent ? failure : markPossiblyCarriedOut(failure);
			}

			// Every answer can echo a callback address; none may carry its secret into an item or error.
			const body = redactEchoedSecrets(parsed.value);
			if (!isServiceFailure(statusCode, body, options.method)) {
				answer = body;
				break;
			}

			// A delete whose earlier attempt reached the service finds the thing already gone: that is
			// the outcome the user asked for, not an error.
			if (options.method === 'DELETE' && statusCode === 404 && earlierAttemptMayHaveApplied) {
				answer = { success: true, results: [] };
				break;
			}

			if (idempotent && statusCode >= 500 && !isLastAttempt) {
				const retryAfter = parseRetryAfter(headers);
				if (retryAfter === undefined || retryAfter <= retryPolicy.maxRetryAfterMs) {
					earlierAttemptMayHaveApplied = true;
					await sleep(retryAfter ?? backoffMs(attempt - 1));
					continue;
				}
			}
			const failure = serviceError(node, summary, statusCode, body);
			if (attempt > 2) failure.description = `${failure.description ?? ''}${attemptsNote}`;
			// A server error can come after the work was done: a submission answered so is not repeated.
			throw !idempotent && statusCode >= 500 ? markPossiblyCarriedOut(failure) : failure;
		}
	} catch (error) {
		if (mayHaveBeenCarriedOut(error)) memory?.mayHaveLanded(itemIndex, options, error as Error);
		throw toNodeError(node, error, options.itemIndex);
	}
	memory?.landed(itemIndex, options, answer);
	return answer;
}
