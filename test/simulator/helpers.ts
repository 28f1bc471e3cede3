import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

import { SPEC_ONLY } from '../../simulator/config';
import type { SimulatorUrls } from '../../simulator/http';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../simulator/server';

/**
 * Fast timings so callbacks and retries finish within a few milliseconds. These suites test the
 * interface's behaviour, so they switch off what production adds (realism.test.ts tests that part),
 * and use the quick callback retry unless a test asks for the service's 2 h / 6 h / 24 h schedule
 * (with a time scale).
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const sim = createSimulator({
		completionDelayMs: 20,
		...SPEC_ONLY,
		...options,
		callbackRetry: { policy: 'quick', baseDelayMs: 5, maxDelayMs: 20, ...options.callbackRetry },
	});
	await sim.start();
	return sim;
}

export interface HttpResult {
	status: number;
	headers: IncomingHttpHeaders;
	text: string;
	body: any;
}

export interface HttpOptions {
	headers?: Record<string, string>;
	query?: Record<string, string | number | boolean>;
	body?: unknown;
}

export async function http(
	method: string,
	url: string,
	options: HttpOptions = {},
): Promise<HttpResult> {
	const target = new URL(url);
	for (const [key, value] of Object.entries(options.query ?? {})) {
		target.searchParams.set(key, String(value));
	}
	const response = await request(target, {
		method: method as 'GET',
		headers: {
			...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
			...options.headers,
		},
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
		// One connection per request: a fault that resets the socket cannot break the next call.
		reset: true,
	});
	const text = await response.body.text();
	let body: unknown;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		body = undefined;
	}
	return {
		status: response.statusCode,
		headers: response.headers as IncomingHttpHeaders,
		text,
		body,
	};
}

export const keyAuth = (sim: Simulator) => ({ 'x-api-key': sim.config.apiKey });
export const tokenAuth = (sim: Simulator) => ({ 'spiderman-token': sim.config.token });

const API_URLS = {
	review: 'baseUrl',
	scheduling: 'schedulingUrl',
	ecommerce: 'ecommerceUrl',
	video: 'videoScraperUrl',
	photo: 'photoScraperUrl',
	social: 'socialScraperUrl',
	index: 'reviewIndexUrl',
	control: 'controlUrl',
} satisfies Record<string, keyof SimulatorUrls>;
export type Api = keyof typeof API_URLS;

/**
 * Calls `route`, "METHOD api /path", with the API's own credential: the token on the review API,
 * the api_key query parameter on the review index, the x-api-key elsewhere. Headers given replace
 * the credential, so a test can send a wrong one or none.
 */
export function call(sim: Simulator, route: string, options: HttpOptions = {}) {
	const [method, api, path = ''] = route.split(' ') as [string, Api, string?];
	const credential =
		api === 'review' ? tokenAuth(sim) : api === 'index' || api === 'control' ? {} : keyAuth(sim);
	const query =
		api === 'index' && !options.headers
			? { api_key: sim.config.apiKey, ...options.query }
			: options.query;
	return http(method, `${sim.urls[API_URLS[api]]}${path}`, {
		...options,
		headers: options.headers ?? credential,
		query,
	});
}

export interface SimulatorSuite {
	sim: Simulator;
	receiver: Receiver;
	call(route: string, options?: HttpOptions): Promise<HttpResult>;
}

/** One simulator and one callback receiver for a file, both emptied before each test. */
export function useSimulator(options: SimulatorOptions = {}): SimulatorSuite {
	const suite = {
		call: (route: string, callOptions?: HttpOptions) => call(suite.sim, route, callOptions),
	} as SimulatorSuite;
	beforeAll(async () => {
		suite.sim = await startSimulator(options);
		suite.receiver = await startReceiver();
	});
	afterAll(async () => {
		await suite.sim.stop();
		await suite.receiver.stop();
	});
	beforeEach(() => {
		suite.sim.reset();
		suite.receiver.received.length = 0;
	});
	return suite;
}

export interface Receiver {
	url: string;
	received: Array<{ path: string; headers: IncomingHttpHeaders; body: unknown }>;
	stop(): Promise<void>;
}

/** A callback receiver on 127.0.0.1; `answer(n)` gives the status for the n-th POST (1-based). */
export async function startReceiver(answer: (n: number) => number = () => 200): Promise<Receiver> {
	const received: Receiver['received'] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			received.push({
				path: req.url ?? '',
				headers: req.headers,
				body: text ? JSON.parse(text) : null,
			});
			res.writeHead(answer(received.length), { 'content-type': 'application/json' });
			res.end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		stop: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 10 ms, at most `timeoutMs`. */
export async function eventually<T>(
	check: () => T | undefined | false,
	timeoutMs = 2000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = check();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
		await sleep(10);
	}
}
