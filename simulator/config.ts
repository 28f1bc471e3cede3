export const HOUR_MS = 3_600_000;

export interface CallbackRetryOptions {
	/**
	 * `service` (the default) retries as production does (docs/service-facts.md#callback-retries):
	 * after any answer other than 2xx, `serviceDelaysMs` after the first failed attempt (2, 6 and 24
	 * hours), each scaled by `timeScale`, then gives up. `quick` is for tests: exponential backoff
	 * from `baseDelayMs` to `maxDelayMs` on 409, 5xx and network errors, `maxAttempts` attempts in
	 * all.
	 */
	policy: 'service' | 'quick';
	serviceDelaysMs: number[];
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export type EcommerceResponseMode = 'envelope' | 'ack';

/** Requests per second accepted per credential; null lifts the limit. */
export interface RateLimitOptions {
	/** Review profile API, per spiderman-token (docs/service-facts.md#rate-limit: 10 per second). */
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
	/** Jobs do not complete on their own: `releaseHeldJobs` completes every one held so far. */
	holdCompletion: boolean;
	/**
	 * Callback attempts started per second at most, over all deliveries; null starts each at once
	 * (as fast as the receiver answers).
	 */
	callbackRate: number | null;
	/** Callback attempts awaiting an answer at one time at most; null: no bound. */
	callbackConcurrency: number | null;
	/** Real milliseconds per simulated millisecond of the service's hour-long delays (1 = real time). */
	timeScale: number;
	/**
	 * When a review job in `maintenance` is crawled again, counted from when it entered maintenance
	 * (docs/service-facts.md#review-job-states: 2, 3, 5, 12, 24 and 72 hours later), each scaled by
	 * `timeScale`; after the last it is `failed`, with no callback.
	 */
	maintenanceRetryDelaysMs: number[];
	callbackRetry: CallbackRetryOptions;
	productCount: number;
	photoPostCount: number;
	respondJobCount: number;
	ecommerceResponse: EcommerceResponseMode;
	rateLimit: RateLimitOptions;
	reviewErrors: ReviewErrorMode;
	/** Schedules an account may hold; one more is refused with 400. */
	scheduleLimit: number | null;
	/**
	 * How GET and DELETE answer a schedule id the account does not hold. The service documents none
	 * (docs/service-facts.md#scheduling-errors): 404 is assumed; 400 (`Invalid request`, details
	 * naming the id) is the service's documented answer to a bad request, 403 its answer when access
	 * is not allowed.
	 */
	missingSchedule: MissingScheduleAnswer;
	/**
	 * The reason a 400 for a missing schedule gives: `namesId` ("Schedule 7 does not exist") or
	 * `plain` ("schedule not found"), since the service's free-text reason need not repeat the id
	 * (docs/service-facts.md#scheduling-errors).
	 */
	missingScheduleWording: MissingScheduleWording;
	/**
	 * Failed runs in a row after which the service disables a schedule
	 * (docs/service-facts.md#schedules-over-time: 10); null never disables one for failures.
	 */
	scheduleFailureLimit: number | null;
	/**
	 * The account's credits at start (or when configured): each review job a schedule run creates
	 * uses one, and a run with none left is refused and disables its schedule, as the service does
	 * when an account runs out. null: never runs out.
	 */
	credits: number | null;
}

export type MissingScheduleAnswer = 404 | 400 | 403;
export type MissingScheduleWording = 'namesId' | 'plain';

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
	holdCompletion: false,
	callbackRate: null,
	callbackConcurrency: null,
	timeScale: 1,
	maintenanceRetryDelaysMs: [2, 3, 5, 12, 24, 72].map((hours) => hours * HOUR_MS),
	callbackRetry: {
		policy: 'service',
		serviceDelaysMs: [2 * HOUR_MS, 6 * HOUR_MS, 24 * HOUR_MS],
		maxAttempts: 8,
		baseDelayMs: 100,
		maxDelayMs: 2000,
	},
	productCount: 250,
	photoPostCount: 120,
	respondJobCount: 5,
	ecommerceResponse: 'envelope',
	rateLimit: { review: 10, apiKey: 10 },
	reviewErrors: 'http200',
	scheduleLimit: 500,
	missingSchedule: 404,
	missingScheduleWording: 'namesId',
	scheduleFailureLimit: 10,
	credits: null,
};

/**
 * What the interface alone describes (docs/service-facts.md#where-these-facts-come-from): no rate
 * limit, HTTP error statuses, no schedule cap.
 */
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
