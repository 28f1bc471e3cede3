/** What routes see: the call, the simulator runtime, and helpers to build answers. */
import type { PayloadKind } from './callbacks';
import type { SimConfig } from './config';
import type { ApiName } from './schemas';
import type { SimState } from './state';

export const API_PREFIXES: Record<ApiName, string> = {
	review: '/review',
	scheduling: '/scheduling',
	ecommerce: '/ecommerce',
	video: '/video',
	photo: '/photo',
	social: '/social',
	reviewIndex: '/review-index',
};

export const CONTROL_PREFIX = '/__sim';

export interface SimulatorUrls {
	baseUrl: string;
	schedulingUrl: string;
	ecommerceUrl: string;
	videoScraperUrl: string;
	photoScraperUrl: string;
	socialScraperUrl: string;
	reviewIndexUrl: string;
	controlUrl: string;
}

export interface RouteResult {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/** One API call, whether it came over HTTP or from a fired schedule. */
export interface ApiCall {
	api: ApiName;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
}

export interface SimRuntime {
	readonly config: SimConfig;
	readonly state: SimState;
	readonly urls: SimulatorUrls;
	/** Runs `fn` after `ms` unless the simulator is reset or stopped first. */
	later(ms: number, fn: () => void): void;
	/**
	 * Runs a job's completion `fn` after `completionDelayMs`, or, with `holdCompletion`, when the
	 * held jobs are released (so a test can complete many waiting jobs at one moment).
	 */
	completeLater(fn: () => void): void;
	deliver(url: string, payload: unknown, kind: PayloadKind, ref: string | number | null): void;
	/** Performs an API call in-process, logged like an HTTP one (used by fired schedules). */
	call(call: ApiCall): Promise<RouteResult>;
}

export interface RouteContext extends ApiCall {
	params: Record<string, string>;
	rt: SimRuntime;
}

export interface Route {
	method: 'GET' | 'POST' | 'DELETE';
	path: string;
	handler: (ctx: RouteContext) => RouteResult | Promise<RouteResult>;
}

export interface ApiDefinition {
	name: ApiName;
	/** Returns the 401 answer, or null when the caller is authenticated. */
	authenticate: (ctx: RouteContext) => RouteResult | null;
	error: (status: number, message: string, details?: string | null) => RouteResult;
	routes: Route[];
}

export const json = (
	status: number,
	body: unknown,
	headers?: Record<string, string>,
): RouteResult => ({
	status,
	body,
	headers,
});

export const schedulingError = (status: number, message: string, details: string | null = null) =>
	json(status, { status: 'failed', message, details });

export const reviewError = (status: number, message: string) =>
	json(status, { success: false, status, message });

export const notFound = () => schedulingError(404, 'Not found');

export function matchRoute<R extends { method: string; path: string }>(
	routes: R[],
	method: string,
	path: string,
): { route: R; params: Record<string, string> } | 'method-not-allowed' | null {
	const parts = path.replace(/\/+$/, '').split('/');
	let pathMatched = false;
	for (const route of routes) {
		const pattern = route.path.split('/');
		if (pattern.length !== parts.length) continue;
		const params: Record<string, string> = {};
		const matches = pattern.every((segment, i) => {
			if (segment.startsWith(':')) {
				if (!parts[i]) return false;
				params[segment.slice(1)] = decodeURIComponent(parts[i]);
				return true;
			}
			return segment === parts[i];
		});
		if (!matches) continue;
		if (route.method === method) return { route, params };
		pathMatched = true;
	}
	return pathMatched ? 'method-not-allowed' : null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const apiKeyError = (ctx: RouteContext): RouteResult | null =>
	ctx.headers['x-api-key'] === ctx.rt.config.apiKey
		? null
		: schedulingError(401, 'Invalid API key');
