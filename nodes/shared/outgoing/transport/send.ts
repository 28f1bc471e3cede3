import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { API_ADDRESSES, requireBaseUrl, type RequestContext, type ServiceRequest } from './apis';
import { outcomeOfResponse, outcomeOfThrown, type AttemptOutcome } from './attemptOutcome';
import { decide } from './decide';
import { attemptFailureError, rateLimitError, toNodeError, type RequestSummary } from './errors';
import { pacerOf } from './pacing';
import { retryPolicy } from './retryPolicy';

export interface SendOptions extends ServiceRequest {
	/** The item the request is for, named in its errors. */
	itemIndex?: number;
}

/** One HTTP attempt, and what it came to. */
async function attempt(
	this: RequestContext,
	credentialType: string,
	url: string,
	options: SendOptions,
): Promise<AttemptOutcome> {
	try {
		const response = (await this.helpers.httpRequestWithAuthentication.call(this, credentialType, {
			method: options.method,
			url,
			qs: options.qs,
			body: options.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: retryPolicy.timeoutMs,
		})) as { statusCode: number; headers: IDataObject; body: unknown };
		return outcomeOfResponse(response, options.method);
	} catch (error) {
		return outcomeOfThrown(error);
	}
}

/**
 * The one way a request reaches the service, and the only place the package talks HTTP: attempts
 * until `decide` (decide.ts, where the retry rule is) says done or fail. Requests of one credential
 * to one API are paced to its Requests per Second; a request refused for the rate is sent again
 * until the rate-limit budget, counted from its first refusal, runs out.
 */
export async function send(this: RequestContext, options: SendOptions): Promise<unknown> {
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

	const earlier: AttemptOutcome[] = [];
	let firstRefusalAt: number | undefined;
	try {
		for (;;) {
			await pacer?.acquire();
			const outcome = await attempt.call(
				this,
				credentialType,
				`${baseUrl}${options.path}`,
				options,
			);
			const decision = decide(outcome, { method: options.method, earlier }, retryPolicy);
			earlier.push(outcome);

			if (outcome.kind === 'rateLimited' && decision.action === 'retry') {
				const now = Date.now();
				firstRefusalAt ??= now;
				const pause = pacer?.refused(outcome.retryAfterMs) ?? decision.afterMs;
				if (now + pause - firstRefusalAt > retryPolicy.rateLimitBudgetMs) {
					const refusals = earlier.filter(({ kind }) => kind === 'rateLimited').length;
					throw rateLimitError(node, summary, label, refusals, now - firstRefusalAt, rate);
				}
				// The pacer holds back every request of this credential for the pause; without one, wait here.
				if (!pacer) await sleep(pause);
				continue;
			}
			pacer?.accepted();
			if (decision.action === 'done') return decision.answer;
			if (decision.action === 'fail') throw attemptFailureError(node, summary, label, decision);
			await sleep(decision.afterMs);
		}
	} catch (error) {
		throw toNodeError(node, error, options.itemIndex);
	}
}
