/**
 * The simulator: one loopback HTTP server, each API under its own path prefix (so each has its own
 * base URL), a control API under /__sim, and the same controls as in-process methods.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CallbackDeliverer, type DeliveryRecord, type PayloadKind } from './callbacks';
import { TimerGroup } from './clock';
import {
	type ConfigPatch as ConfigPatchOptions,
	DEFAULT_CONFIG,
	mergeConfig,
	type SimConfig,
	type SimulatorOptions,
} from './config';
import { type Fault, FaultStore } from './faults';
import { RateLimiter } from './rateLimit';
import {
	API_PREFIXES,
	type ApiCall,
	type ApiDefinition,
	CONTROL_PREFIX,
	json,
	matchRoute,
	type RouteContext,
	type RouteResult,
	schedulingError,
	type SimRuntime,
	type SimulatorUrls,
} from './http';
import { type ControlTarget, controlRoutes } from './routes/control';
import { ecommerceApi } from './routes/ecommerce';
import { photoApi } from './routes/photo';
import { resyncReviewJob, reviewApi } from './routes/review';
import { reviewIndexApi } from './routes/reviewIndex';
import {
	type FireOptions,
	type FireResult,
	fireSchedule,
	schedulingApi,
} from './routes/scheduling';
import { socialApi } from './routes/social';
import { seedVideoRequest, videoApi } from './routes/video';
import {
	ConfigPatch,
	FaultSpec,
	type FaultSpecBody,
	type RequestStatusRecordBody,
	type ScheduleBody,
	VideoSeed,
	type VideoSeedBody,
	type ReviewJobCallbackBody,
} from './schemas';
import { type Counts, type RequestLogEntry, SimState } from './state';

export type { CallbackRetryOptions, SimConfig, SimulatorOptions } from './config';
export type { DeliveryRecord, PayloadKind } from './callbacks';
export type { Fault } from './faults';
export type { SimulatorUrls, RouteResult } from './http';
export type { FireOptions, FireResult } from './routes/scheduling';
export type { Counts, RequestLogEntry } from './state';

const APIS: ApiDefinition[] = [
	reviewApi,
	schedulingApi,
	ecommerceApi,
	videoApi,
	photoApi,
	socialApi,
	reviewIndexApi,
];

function underPrefix(path: string, prefix: string): boolean {
	return path === prefix || path.startsWith(`${prefix}/`);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** Production answers a rate-limited call with a bare 429: no Retry-After, and a body that is not JSON. */
function sendRateLimited(res: ServerResponse): void {
	const text = 'Too Many Requests';
	res.writeHead(429, {
		'content-type': 'text/plain; charset=utf-8',
		'content-length': Buffer.byteLength(text),
	});
	res.end(text);
}

function send(res: ServerResponse, result: RouteResult): void {
	const text = JSON.stringify(result.body);
	res.writeHead(result.status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
		...result.headers,
	});
	res.end(text);
}

const FAULT_ANSWERS: Partial<Record<Fault['kind'], (fault: Fault) => RouteResult>> = {
	'429': (fault) => ({
		...schedulingError(429, 'Too many requests', 'rate limit exceeded, retry later'),
		headers: { 'retry-after': String(fault.retryAfterSeconds) },
	}),
	'500': () => schedulingError(500, 'Unknown error occured'),
	'503': () => schedulingError(503, 'Service unavailable'),
	'success-false': () => json(200, { success: false, status: 500, message: 'Simulated failure' }),
	'failed-200': (fault) =>
		json(200, {
			status: 'failed',
			message: 'Request refused: not enough credits',
			request_id: `refused-${fault.id}`,
		}),
};

export class Simulator implements SimRuntime, ControlTarget {
	config: SimConfig;
	state: SimState;
	private readonly initialConfig: SimConfig;
	private readonly port: number;
	private readonly faultStore = new FaultStore();
	private readonly timers = new TimerGroup();
	/** Apart from `timers` so a reset does not strand a request held by a `slow` fault. */
	private readonly faultTimers = new TimerGroup();
	private readonly callbacks: CallbackDeliverer;
	private heldCompletions: Array<() => void> = [];
	private readonly rateLimiter = new RateLimiter(() => this.config.rateLimit);
	private server: Server | undefined;
	private currentUrls: SimulatorUrls | undefined;

	constructor(options: SimulatorOptions = {}) {
		this.port = options.port ?? 0;
		this.initialConfig = mergeConfig(DEFAULT_CONFIG, ConfigPatch.parse(withoutPort(options)));
		this.config = this.initialConfig;
		this.state = this.newState();
		this.callbacks = new CallbackDeliverer(() => ({
			retry: this.config.callbackRetry,
			timeScale: this.config.timeScale,
			callbackRate: this.config.callbackRate,
			callbackConcurrency: this.config.callbackConcurrency,
		}));
	}

	get urls(): SimulatorUrls {
		if (!this.currentUrls) throw new Error('The simulator is not started');
		return this.currentUrls;
	}

	async start(): Promise<void> {
		if (this.server) return;
		const server = createServer((req, res) => {
			this.onRequest(req, res).catch((error) => {
				if (!res.headersSent)
					send(res, schedulingError(500, 'Unknown error occured', String(error)));
				else res.destroy();
			});
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(this.port, '127.0.0.1', () => {
				server.off('error', reject);
				resolve();
			});
		});
		this.server = server;
		const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		this.currentUrls = {
			baseUrl: `${origin}${API_PREFIXES.review}`,
			schedulingUrl: `${origin}${API_PREFIXES.scheduling}`,
			ecommerceUrl: `${origin}${API_PREFIXES.ecommerce}`,
			videoScraperUrl: `${origin}${API_PREFIXES.video}`,
			photoScraperUrl: `${origin}${API_PREFIXES.photo}`,
			socialScraperUrl: `${origin}${API_PREFIXES.social}`,
			reviewIndexUrl: `${origin}${API_PREFIXES.reviewIndex}`,
			controlUrl: `${origin}${CONTROL_PREFIX}`,
		};
	}

	async stop(): Promise<void> {
		this.timers.clear();
		this.faultTimers.clear();
		await this.callbacks.close();
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}

	// ------------------------------------------------------------ SimRuntime

	later(ms: number, fn: () => void): void {
		this.timers.later(ms, fn);
	}

	completeLater(fn: () => void): void {
		if (this.config.holdCompletion) this.heldCompletions.push(fn);
		else this.timers.later(this.config.completionDelayMs, fn);
	}

	deliver(url: string, payload: unknown, kind: PayloadKind, ref: string | number | null): void {
		this.callbacks.deliver(url, payload, kind, ref);
	}

	async call(call: ApiCall): Promise<RouteResult> {
		const entry = this.state.log({
			api: call.api,
			method: call.method,
			path: call.path,
			query: call.query,
			headers: call.headers,
			body: call.body,
			origin: 'schedule',
		});
		const api = APIS.find((candidate) => candidate.name === call.api)!;
		const result = this.faultedRun(api, call, entry) ?? (await this.execute(api, call));
		entry.responseStatus = result.status;
		return result;
	}

	/**
	 * A fault injected on the target API fails a schedule's run as it fails a client's request, so
	 * tests can make runs fail in a row; a fault that needs a socket answers 500 here.
	 */
	private faultedRun(api: ApiDefinition, call: ApiCall, entry: RequestLogEntry) {
		const fault = this.faultStore.take(
			api.name,
			call.method,
			call.path,
			`${JSON.stringify(call.query)} ${JSON.stringify(call.body ?? '')}`,
		);
		if (!fault) return undefined;
		entry.fault = fault.kind;
		if (fault.kind === 'refused') return this.asServiceAnswers(api, api.error(400, 'Refused'));
		const early = FAULT_ANSWERS[fault.kind];
		return this.asServiceAnswers(api, early ? early(fault) : api.error(500, 'Unknown error'));
	}

	// ------------------------------------------------------------ controls

	reset(): void {
		this.timers.clear();
		this.heldCompletions = [];
		this.callbacks.clear();
		this.faultStore.clear();
		this.rateLimiter.clear();
		this.config = this.initialConfig;
		this.state = this.newState();
	}

	private newState(): SimState {
		const state = new SimState(this.config.respondJobCount);
		state.creditsLeft = this.config.credits;
		return state;
	}

	/** Completes every job held by `holdCompletion`, in the order they were created. */
	releaseHeldJobs(): number {
		const held = this.heldCompletions.splice(0);
		for (const complete of held) complete();
		return held.length;
	}

	requests(): RequestLogEntry[] {
		return this.state.requestLog.map((entry) => ({ ...entry }));
	}

	clearRequests(): void {
		this.state.requestLog.length = 0;
	}

	injectFault(spec: FaultSpecBody): Fault {
		return this.faultStore.inject(FaultSpec.parse(spec));
	}

	faults(): Fault[] {
		return this.faultStore.list();
	}

	clearFaults(): void {
		this.faultStore.clear();
	}

	async fireSchedule(scheduleId: number, options: FireOptions = {}): Promise<FireResult> {
		const result = await fireSchedule(this, scheduleId, options);
		if (!result) throw new Error(`Schedule ${scheduleId} not found`);
		return result;
	}

	private scheduleRecord(scheduleId: number) {
		const record = this.state.schedules.get(scheduleId);
		if (!record) throw new Error(`Schedule ${scheduleId} not found`);
		return record;
	}

	/** Puts a schedule in the state the service leaves it in after failures or lack of credits. */
	setScheduleDisabled(scheduleId: number, disabled: boolean): ScheduleBody {
		const { schedule } = this.scheduleRecord(scheduleId);
		schedule.disabled = disabled;
		return schedule;
	}

	/** The account holder deletes a schedule outside n8n: no request of a client is logged. */
	deleteScheduleBehindTheBack(scheduleId: number): ScheduleBody {
		const { schedule } = this.scheduleRecord(scheduleId);
		this.state.schedules.delete(scheduleId);
		return schedule;
	}

	/** Dates the last successful run (null: never), as days of silence would leave it. */
	setLastSuccessfulRun(scheduleId: number, at: string | null): ScheduleBody {
		const { schedule } = this.scheduleRecord(scheduleId);
		schedule.last_successful_run = at;
		return schedule;
	}

	deliveries(): DeliveryRecord[] {
		return this.callbacks.list();
	}

	waitForDeliveries(count: number, timeoutMs = 5000): Promise<DeliveryRecord[]> {
		return this.callbacks.waitFor(count, timeoutMs);
	}

	configure(patch: ConfigPatchOptions): SimConfig {
		const checked = ConfigPatch.parse(withoutPort(patch));
		this.config = mergeConfig(this.config, checked);
		if (checked.credits !== undefined) this.state.creditsLeft = checked.credits;
		if (checked.respondJobCount !== undefined)
			this.state.reseedRespondJobs(checked.respondJobCount);
		return this.config;
	}

	resyncReviewJob(jobId: number, addReviews = 1): ReviewJobCallbackBody {
		const result = resyncReviewJob(this, jobId, addReviews);
		if (typeof result === 'string') throw new Error(result);
		return result;
	}

	seedVideoRequest(seed: VideoSeedBody = {}): RequestStatusRecordBody {
		return seedVideoRequest(this, VideoSeed.parse(seed));
	}

	counts(): Counts {
		return this.state.counts();
	}

	submissions(): Record<string, number> {
		return this.state.submissions();
	}

	// ------------------------------------------------------------ HTTP

	private async route(api: ApiDefinition, call: ApiCall): Promise<RouteResult> {
		const ctx: RouteContext = { ...call, params: {}, rt: this };
		const denied = api.authenticate(ctx);
		if (denied) return denied;
		const match = matchRoute(api.routes, call.method, call.path);
		if (match === null) return api.error(404, 'Not found');
		if (match === 'method-not-allowed') return api.error(405, 'Method not allowed');
		ctx.params = match.params;
		try {
			return await match.route.handler(ctx);
		} catch (error) {
			return api.error(500, 'Unknown error occured', String(error?.message ?? error));
		}
	}

	private async execute(api: ApiDefinition, call: ApiCall): Promise<RouteResult> {
		return this.asServiceAnswers(api, await this.route(api, call));
	}

	/** The review API's errors come in HTTP 200 (docs/service-facts.md#review-api-errors). */
	private asServiceAnswers(api: ApiDefinition, result: RouteResult): RouteResult {
		if (api.name === 'review' && this.config.reviewErrors === 'http200' && result.status >= 400) {
			return { ...result, status: 200 };
		}
		return result;
	}

	private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const method = (req.method ?? 'GET').toUpperCase();
		const raw = await readBody(req);
		let body: unknown;
		let badJson = false;
		if (raw.length > 0) {
			try {
				body = JSON.parse(raw.toString('utf8'));
			} catch {
				body = raw.toString('utf8');
				badJson = true;
			}
		}
		const firstValues = Object.fromEntries(url.searchParams.entries());

		if (underPrefix(url.pathname, CONTROL_PREFIX)) {
			const path = url.pathname.slice(CONTROL_PREFIX.length) || '/';
			const match = matchRoute(controlRoutes, method, path);
			if (match === null || match === 'method-not-allowed') {
				return send(res, json(404, { message: `No control route ${method} ${path}` }));
			}
			const result = await match.route.handler(this, {
				params: match.params,
				query: firstValues,
				body,
			});
			return send(res, result);
		}

		const api = [...APIS]
			.sort((a, b) => API_PREFIXES[b.name].length - API_PREFIXES[a.name].length)
			.find((candidate) => underPrefix(url.pathname, API_PREFIXES[candidate.name]));
		if (!api) {
			return send(res, schedulingError(404, 'Not found', `no API is served under ${url.pathname}`));
		}
		const path = url.pathname.slice(API_PREFIXES[api.name].length) || '/';
		const query: Record<string, string | string[]> = {};
		for (const key of new Set(url.searchParams.keys())) {
			const values = url.searchParams.getAll(key);
			query[key] = values.length === 1 ? values[0] : values;
		}
		const headers = Object.fromEntries(
			Object.entries(req.headers).map(([name, value]) => [
				name,
				Array.isArray(value) ? value.join(', ') : (value ?? ''),
			]),
		);
		const entry = this.state.log({ api: api.name, method, path, query, headers, body });
		// Checked before faults, so a refused request does not use up a fault meant for a later one.
		if (!this.rateLimiter.admit(api.name, headers)) {
			entry.responseStatus = 429;
			entry.rateLimited = true;
			this.state.rateLimited++;
			return sendRateLimited(res);
		}
		const fault = this.faultStore.take(
			api.name,
			method,
			path,
			`${url.pathname}${url.search} ${raw.toString('utf8')}`,
		);
		if (fault) entry.fault = fault.kind;

		if (fault?.kind === 'reset-before') {
			req.socket.resetAndDestroy();
			return;
		}
		if (fault?.kind === 'refused') {
			const refusal = this.asServiceAnswers(api, api.error(400, 'Refused by the service'));
			entry.responseStatus = refusal.status;
			return send(res, refusal);
		}
		const early = fault && FAULT_ANSWERS[fault.kind];
		if (fault && early) {
			const result = early(fault);
			entry.responseStatus = result.status;
			return send(res, result);
		}
		const slow = fault?.kind === 'slow' ? fault : undefined;
		if (slow && !slow.processFirst) await this.faultTimers.sleep(slow.delayMs);

		const result = badJson
			? api.error(400, 'Invalid request', 'body is not valid JSON')
			: await this.execute(api, { api: api.name, method, path, query: firstValues, headers, body });
		// A job can complete, and its callback go out, before the answer to its submit arrives.
		if (slow?.processFirst) await this.faultTimers.sleep(slow.delayMs);

		if (fault?.kind === 'reset-after') {
			req.socket.resetAndDestroy();
			return;
		}
		entry.responseStatus = fault?.kind === 'malformed' ? 200 : result.status;
		if (fault?.kind === 'malformed') {
			const text = JSON.stringify(result.body);
			const truncated = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
			res.writeHead(200, {
				'content-type': 'application/json; charset=utf-8',
				'content-length': Buffer.byteLength(truncated),
			});
			res.end(truncated);
			return;
		}
		send(res, result);
	}
}

function withoutPort(options: SimulatorOptions): ConfigPatchOptions {
	const { port: _port, ...rest } = options;
	return rest;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
	return new Simulator(options);
}
