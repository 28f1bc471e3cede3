export interface CallbackRetryOptions {
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export type EcommerceResponseMode = 'envelope' | 'ack';

/** Requests per second accepted per credential; null lifts the limit. */
export interface RateLimitOptions {
	/** Review profile API, per spiderman-token (REAL-SERVICE.md: 10 per second). */
	review: number | null;
	/** Each x-api-key API, per key (undocumented: treated like the review API). */
	apiKey: number | null;
}

/** `http200`: review API errors come as HTTP 200 + `success: false`, as production answers them. */
export type ReviewErrorMode = 'http200' | 'status';

export interface SimConfig {
	token: string;
	apiKey: string;
	completionDelayMs: number;
	callbackRetry: CallbackRetryOptions;
	productCount: number;
	photoPostCount: number;
	respondJobCount: number;
	ecommerceResponse: EcommerceResponseMode;
	rateLimit: RateLimitOptions;
	reviewErrors: ReviewErrorMode;
	/** Schedules an account may hold; one more is refused with 400. */
	scheduleLimit: number | null;
}

export interface SimulatorOptions extends Partial<Omit<SimConfig, 'callbackRetry' | 'rateLimit'>> {
	port?: number;
	callbackRetry?: Partial<CallbackRetryOptions>;
	rateLimit?: Partial<RateLimitOptions>;
}

export type ConfigPatch = Omit<SimulatorOptions, 'port'>;

export const DEFAULT_CONFIG: SimConfig = {
	token: 'sim-token',
	apiKey: 'sim-key',
	completionDelayMs: 50,
	callbackRetry: { maxAttempts: 8, baseDelayMs: 100, maxDelayMs: 2000 },
	productCount: 250,
	photoPostCount: 120,
	respondJobCount: 5,
	ecommerceResponse: 'envelope',
	rateLimit: { review: 10, apiKey: 10 },
	reviewErrors: 'http200',
	scheduleLimit: 500,
};

/** What the spec alone describes: no rate limit, HTTP error statuses, no schedule cap. */
export const SPEC_ONLY: ConfigPatch = {
	rateLimit: { review: null, apiKey: null },
	reviewErrors: 'status',
	scheduleLimit: null,
};

export function mergeConfig(base: SimConfig, patch: ConfigPatch): SimConfig {
	const defined = Object.fromEntries(
		Object.entries(patch).filter(([key, value]) => value !== undefined && key !== 'port'),
	) as ConfigPatch;
	return {
		...base,
		...defined,
		callbackRetry: { ...base.callbackRetry, ...(patch.callbackRetry ?? {}) },
		rateLimit: { ...base.rateLimit, ...(patch.rateLimit ?? {}) },
	} as SimConfig;
}
