import { createHash } from 'node:crypto';
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { API_ADDRESSES, DEFAULT_REQUESTS_PER_SECOND, SECRET_FIELDS, type ApiName } from './apis';

/**
 * Share of the configured rate actually used. The service counts requests as they arrive; network
 * and event-loop jitter can bring two requests sent 100 ms apart closer together, and at exactly
 * the limit that is enough for a 429.
 */
const HEADROOM = 0.95;
/**
 * A lone 429 after accepted requests is most often that jitter at the edge of the limit: the rate
 * eases off a little. A refusal right after a refusal means the account is oversubscribed (another
 * process or workflow shares it, or the plan is lower than the credential says): the rate halves.
 */
const LONE_REFUSAL_FACTOR = 0.8;
const REPEATED_REFUSAL_FACTOR = 0.5;
/** As low as refusals take the rate. */
const MIN_RATE_SHARE = 0.1;
/** Each accepted request wins back this share of the configured rate. */
const RECOVERY_SHARE = 0.02;
/**
 * Short at first: over a sliding second the service soon forgets the oldest request. If it counts
 * some other way, the refusals that follow double the pause.
 */
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 10_000;
/** A credential left alone this long since its last refusal starts again at its full rate. */
const FORGET_REFUSALS_AFTER_MS = 60_000;

/**
 * Spaces the requests of one credential to one API. Grants go out one at a time, in the order
 * they were asked for, each at least 1/rate after the one before it, measured when it is granted
 * (so a late timer never lets a burst through). A 429 lowers the rate and pauses every sender of
 * the credential; accepted requests bring the rate back up step by step (additive increase,
 * multiplicative decrease), which lets several processes sharing one account settle under its
 * limit without talking to each other.
 */
export class RequestPacer {
	private configuredRate: number;
	private currentRate: number;
	private nextGrantAt = 0;
	private refusalStreak = 0;
	private lastRefusalAt = 0;
	private queue: Promise<void> = Promise.resolve();
	/** Requests refused with 429 since this pacer was created; only the pacing tests read it. */
	refusals = 0;

	constructor(requestsPerSecond: number) {
		this.configuredRate = requestsPerSecond;
		this.currentRate = requestsPerSecond;
	}

	/** The rate now granted; only the pacing tests read it. */
	get rate(): number {
		return this.currentRate;
	}

	setConfiguredRate(requestsPerSecond: number): void {
		if (requestsPerSecond === this.configuredRate) return;
		this.configuredRate = requestsPerSecond;
		this.currentRate = Math.min(this.currentRate, requestsPerSecond);
		if (this.refusalStreak === 0) this.currentRate = requestsPerSecond;
	}

	/** Resolves when the caller may send one request. */
	async acquire(): Promise<void> {
		const turn = this.queue.then(async () => await this.waitForGrant());
		this.queue = turn;
		await turn;
	}

	accepted(): void {
		this.refusalStreak = 0;
		const step = this.configuredRate * RECOVERY_SHARE;
		this.currentRate = Math.min(this.configuredRate, this.currentRate + step);
	}

	/** The service refused a request for its rate: slow down and pause everyone. Returns the pause. */
	refused(retryAfterMs?: number): number {
		this.refusals++;
		this.refusalStreak++;
		this.lastRefusalAt = Date.now();
		const factor = this.refusalStreak === 1 ? LONE_REFUSAL_FACTOR : REPEATED_REFUSAL_FACTOR;
		this.currentRate = Math.max(this.configuredRate * MIN_RATE_SHARE, this.currentRate * factor);
		const ceiling = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.refusalStreak - 1));
		const pause = retryAfterMs ?? ceiling / 2 + (Math.random() * ceiling) / 2;
		this.nextGrantAt = Math.max(this.nextGrantAt, Date.now() + pause);
		return pause;
	}

	private async waitForGrant(): Promise<void> {
		if (Date.now() - this.lastRefusalAt > FORGET_REFUSALS_AFTER_MS) {
			this.currentRate = this.configuredRate;
		}
		for (let wait = this.nextGrantAt - Date.now(); wait > 0; wait = this.nextGrantAt - Date.now()) {
			await sleep(wait);
		}
		this.nextGrantAt = Date.now() + 1000 / (this.currentRate * HEADROOM);
	}
}

// One pacer per API and credential for the whole n8n process: items, operations and concurrent
// executions that use the same account share it, as they share the account's limit.
const pacers = new Map<string, RequestPacer>();

export function pacerFor(
	api: string,
	baseUrl: string,
	secret: string,
	requestsPerSecond: number,
): RequestPacer {
	// The key is a digest: the secret itself is not kept beyond the request.
	const key = createHash('sha256').update(`${api}\u0000${baseUrl}\u0000${secret}`).digest('hex');
	let pacer = pacers.get(key);
	if (!pacer) {
		pacer = new RequestPacer(requestsPerSecond);
		pacers.set(key, pacer);
	}
	pacer.setConfiguredRate(requestsPerSecond);
	return pacer;
}

function requestsPerSecond(node: INode, value: unknown, itemIndex?: number): number {
	if (value === undefined || value === null || value === '') return DEFAULT_REQUESTS_PER_SECOND;
	const rate = Number(value);
	if (!Number.isFinite(rate) || rate < 0) {
		throw new NodeOperationError(node, "The credential's Requests per Second is not valid", {
			description: `"Requests per Second" must be a number of 0 or more (0: no pacing); it is ${String(value)}.`,
			itemIndex,
		});
	}
	return rate;
}

/** The pacer of the credential's account on this API; none when its Requests per Second is 0. */
export function pacerOf(
	node: INode,
	api: ApiName,
	baseUrl: string,
	credentials: IDataObject | undefined,
	itemIndex?: number,
): { pacer?: RequestPacer; rate: number } {
	const rate = requestsPerSecond(node, credentials?.requestsPerSecond, itemIndex);
	const { credentialType } = API_ADDRESSES[api];
	const secret = String(credentials?.[SECRET_FIELDS[credentialType]] ?? '');
	return { pacer: rate > 0 ? pacerFor(api, baseUrl, secret, rate) : undefined, rate };
}
