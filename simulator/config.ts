export const HOUR_MS = 3_600_000;

export interface CallbackRetryOptions {
	/**
	 * `service` (the default) retries as production does (REAL-SERVICE.md): after any answer other
	 * than 2xx, `serviceDelaysMs` after the first failed attempt (2, 6 and 24 hours), each scaled by
	 * `timeScale`, then gives up. `quick` is for tests: exponential backoff from `baseDelayMs` to
	 * `maxDelayMs` on 409, 5xx and network errors, `maxAttempts` attempts in all.
	 */
	policy: 'service' | 'quick';
	serviceDelaysMs: number[];
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export type EcommerceResponseMode = 'envelope' | 'ack';

export interface SimConfig {
	token: string;
	apiKey: string;
	completionDelayMs: number;
	/** Real milliseconds per simulated millisecond of the service's hour-long delays (1 = real time). */
	timeScale: number;
	callbackRetry: CallbackRetryOptions;
	productCount: number;
	photoPostCount: number;
	respondJobCount: number;
	ecommerceResponse: EcommerceResponseMode;
}

export interface SimulatorOptions extends Partial<Omit<SimConfig, 'callbackRetry'>> {
	port?: number;
	callbackRetry?: Partial<CallbackRetryOptions>;
}

export type ConfigPatch = Omit<SimulatorOptions, 'port'>;

export const DEFAULT_CONFIG: SimConfig = {
	token: 'sim-token',
	apiKey: 'sim-key',
	completionDelayMs: 50,
	timeScale: 1,
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
};

export function mergeConfig(base: SimConfig, patch: ConfigPatch): SimConfig {
	const defined = Object.fromEntries(
		Object.entries(patch).filter(([key, value]) => value !== undefined && key !== 'port'),
	) as ConfigPatch;
	return {
		...base,
		...defined,
		callbackRetry: { ...base.callbackRetry, ...(patch.callbackRetry ?? {}) },
	} as SimConfig;
}
