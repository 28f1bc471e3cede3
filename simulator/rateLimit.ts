/**
 * The production service's rate limit (docs/service-facts.md#rate-limit): a number of requests per
 * second per credential. Modelled as a rolling one-second window, the strictest reading of "N per
 * second": a client that passes it also passes a fixed window or a token bucket of the same rate.
 * Refused requests do not use up the allowance.
 */
import { performance } from 'node:perf_hooks';

import type { RateLimitOptions } from './config';
import type { ApiName } from './schemas';

const WINDOW_MS = 1000;

export class RateLimiter {
	private readonly accepted = new Map<string, number[]>();

	constructor(private readonly limits: () => RateLimitOptions) {}

	/** Whether this request may go through; records it when it may. */
	admit(api: ApiName, headers: Record<string, string>): boolean {
		const limits = this.limits();
		const perSecond = api === 'review' ? limits.review : limits.apiKey;
		// The review index authenticates by query parameter and its rate is not described.
		if (perSecond === null || api === 'reviewIndex') return true;
		const credential = api === 'review' ? headers['spiderman-token'] : headers['x-api-key'];
		const key = `${api}\u0000${credential ?? ''}`;
		const now = performance.now();
		const times = this.accepted.get(key) ?? [];
		while (times.length > 0 && times[0] <= now - WINDOW_MS) times.shift();
		if (times.length >= perSecond) {
			this.accepted.set(key, times);
			return false;
		}
		times.push(now);
		this.accepted.set(key, times);
		return true;
	}

	clear(): void {
		this.accepted.clear();
	}
}
