export interface CallbackRetryOptions {
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export type EcommerceResponseMode = 'envelope' | 'ack';

export interface SimConfig {
	token: string;
	apiKey: string;
	completionDelayMs: number;
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
	callbackRetry: { maxAttempts: 8, baseDelayMs: 100, maxDelayMs: 2000 },
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
