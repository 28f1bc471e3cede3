import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { retryPolicy } from '../../nodes/shared/outgoing/transport';
import type { Counts, Fault, Simulator } from '../../simulator/server';
import type { Execution, WorkflowNode } from './harness/client';
import { chain, nodeOutput, nodeRun, splitOutNode, webhookNode } from './harness/workflows';
import { useE2e } from './harness/suite';

// A submission refused in HTTP 200 (`failed-200`) or in the API's error shape (`refused`) is no
// transport fault: edges.test.ts and settings-matrix.test.ts cover them.
type Kind = Exclude<Fault['kind'], 'failed-200' | 'refused'>;
type Api = NonNullable<Parameters<Simulator['injectFault']>[0]['api']>;

const { client, simulator, credentials, activated } = useE2e({
	credentials: 'fault matrix',
	resetEachTest: false,
	deactivate: 'afterAll',
});
let receiver: Server;
let receiverUrl: string;
const tally = { faultsInjected: 0, postCases: 0, duplicateJobs: 0, cases: 0 };

/** Long enough to be told apart from a fast answer, short enough for a matrix of cases. */
const SLOW_MS = 300;
const RETRY_AFTER_S = 1;

beforeAll(async () => {
	// Where the simulator delivers the callbacks of the requests the cases create.
	receiver = createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(200).end('{}'));
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});

afterAll(async () => {
	await new Promise((resolve) => receiver?.close(resolve));
	console.log(`fault matrix in real n8n: ${JSON.stringify(tally)}`);
});

const direct = async (url: string, init: RequestInit & { key?: 'token' | 'key' } = {}) => {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (init.key === 'token') headers['spiderman-token'] = simulator.config.token;
	else headers['x-api-key'] = simulator.config.apiKey;
	const res = await fetch(url, { ...init, headers });
	const body = (await res.json()) as Record<string, unknown>;
	if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status}`);
	return body;
};

/** What each case needs to exist on the service before the node asks for it. */
const prepare = {
	none: async () => ({}) as Record<string, string>,
	respondJob: async () => ({ id: String(simulator.state.respondJobs[0].job_id) }),
	photoRequest: async () => {
		const ack = await direct(`${simulator.urls.photoScraperUrl}/v1/search`, {
			method: 'POST',
			body: JSON.stringify({ keyword: '#faults', callback_url: receiverUrl }),
		});
		// Get Results checks the request is complete before asking for its pages.
		await simulator.waitForDeliveries(1, 10_000);
		return { id: String(ack.request_id) };
	},
	socialRequest: async () => {
		const ack = await direct(`${simulator.urls.socialScraperUrl}/v1/scrape`, {
			method: 'POST',
			body: JSON.stringify({ url: 'https://social.example.com/p/1', callback_url: receiverUrl }),
		});
		await simulator.waitForDeliveries(1, 10_000);
		return { id: String(ack.request_id) };
	},
	videoRequest: async () => ({
		id: simulator.seedVideoRequest({ request_metadata: { callback_url: receiverUrl } }).request_id,
	}),
	schedule: async () => {
		const created = await direct(`${simulator.urls.schedulingUrl}/schedules`, {
			method: 'POST',
			body: JSON.stringify({
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				query_params: { url: 'https://www.example.com/biz/faults', callback: receiverUrl },
			}),
		});
		const [schedule] = created.results as Array<{ schedule_id: number }>;
		return { id: String(schedule.schedule_id) };
	},
};

interface Endpoint {
	method: 'GET' | 'POST' | 'DELETE';
	api: Api;
	/** The path as the node requests it, `:id` standing for the prepared resource. */
	path: string;
	node: 'reviewScraper' | 'ecommerceSearch' | 'socialScraper' | 'scrapingScheduler';
	parameters: Record<string, unknown>;
	prepare: keyof typeof prepare;
	/** POST only: the simulator's count of what the request creates. */
	created?: keyof Counts;
}

const id = '={{ $json.body.id }}';
const callback = '={{ $json.body.callback }}';
const schedule = { __rl: true, mode: 'id', value: id };

const endpoints: Endpoint[] = [
	{
		method: 'POST',
		api: 'review',
		path: '/api/v2/profiles/add',
		node: 'reviewScraper',
		parameters: { resource: 'profile', operation: 'add', url: 'https://www.example.com/biz/f' },
		prepare: 'none',
		created: 'jobs',
	},
	{
		method: 'POST',
		api: 'review',
		path: '/api/v2/profiles/add_bulk',
		node: 'reviewScraper',
		parameters: { resource: 'profile', operation: 'addMany', url: 'https://www.example.com/biz/g' },
		prepare: 'none',
		created: 'bulkJobs',
	},
	{
		method: 'POST',
		api: 'ecommerce',
		path: '/search',
		node: 'ecommerceSearch',
		parameters: {
			resource: 'product',
			operation: 'search',
			keyword: 'lamp',
			callbackUrl: callback,
		},
		prepare: 'none',
		created: 'ecommerceSearches',
	},
	{
		method: 'POST',
		api: 'photo',
		path: '/v1/search',
		node: 'socialScraper',
		parameters: {
			resource: 'photoPost',
			operation: 'search',
			keyword: '#f',
			callbackUrl: callback,
		},
		prepare: 'none',
		created: 'photoSearches',
	},
	{
		method: 'POST',
		api: 'social',
		path: '/v1/scrape',
		node: 'socialScraper',
		parameters: {
			resource: 'socialPost',
			operation: 'scrape',
			url: 'https://social.example.com/someone/posts/7',
			callbackUrl: callback,
		},
		prepare: 'none',
		created: 'scrapes',
	},
	{
		method: 'POST',
		api: 'scheduling',
		path: '/schedules',
		node: 'scrapingScheduler',
		parameters: {
			resource: 'schedule',
			operation: 'create',
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			queryParameters: {
				parameter: [
					{ name: 'url', value: 'https://www.example.com/biz/s' },
					{ name: 'callback', value: 'https://hooks.example.com/schedules' },
				],
			},
		},
		prepare: 'none',
		created: 'schedules',
	},
	{
		method: 'GET',
		api: 'review',
		path: '/api/v2/responds/jobs',
		node: 'reviewScraper',
		parameters: { resource: 'respondJob', operation: 'getAll', returnAll: true },
		prepare: 'none',
	},
	{
		method: 'GET',
		api: 'review',
		path: '/api/v2/responds/jobs/:id',
		node: 'reviewScraper',
		parameters: { resource: 'respondJob', operation: 'get', jobId: id },
		prepare: 'respondJob',
	},
	{
		method: 'GET',
		api: 'review',
		path: '/api/v2/local_naps/local_nap',
		node: 'reviewScraper',
		parameters: { resource: 'listingAudit', operation: 'get', jobId: id, simplify: false },
		prepare: 'respondJob',
	},
	{
		method: 'GET',
		api: 'photo',
		path: '/v1/search/:id',
		node: 'socialScraper',
		parameters: { resource: 'photoPost', operation: 'getResults', requestId: id },
		prepare: 'photoRequest',
	},
	{
		method: 'GET',
		api: 'photo',
		path: '/v1/requests/:id',
		node: 'socialScraper',
		parameters: { resource: 'photoPost', operation: 'getStatus', requestId: id },
		prepare: 'photoRequest',
	},
	{
		method: 'GET',
		api: 'social',
		path: '/v1/scrape/:id',
		node: 'socialScraper',
		parameters: { resource: 'socialPost', operation: 'getResults', requestId: id },
		prepare: 'socialRequest',
	},
	{
		method: 'GET',
		api: 'video',
		path: '/v1/requests/:id',
		node: 'socialScraper',
		parameters: { resource: 'videoRequest', operation: 'getStatus', requestId: id },
		prepare: 'videoRequest',
	},
	{
		method: 'GET',
		api: 'scheduling',
		path: '/schedules',
		node: 'scrapingScheduler',
		parameters: { resource: 'schedule', operation: 'getAll', returnAll: true },
		prepare: 'schedule',
	},
	{
		method: 'GET',
		api: 'scheduling',
		path: '/schedules/:id',
		node: 'scrapingScheduler',
		parameters: { resource: 'schedule', operation: 'get', scheduleId: schedule },
		prepare: 'schedule',
	},
	{
		method: 'DELETE',
		api: 'scheduling',
		path: '/schedules/:id',
		node: 'scrapingScheduler',
		parameters: { resource: 'schedule', operation: 'deleteSchedule', scheduleId: schedule },
		prepare: 'schedule',
	},
];

const CREDENTIAL: Record<Endpoint['node'], string> = {
	reviewScraper: 'reviewScraperApi',
	ecommerceSearch: 'scrapingApi',
	socialScraper: 'scrapingApi',
	scrapingScheduler: 'scrapingApi',
};

const NODE = 'Node Under Test';

function nodeFor(endpoint: Endpoint, extra: Partial<WorkflowNode> = {}): WorkflowNode {
	const credential = CREDENTIAL[endpoint.node];
	return {
		id: randomUUID(),
		name: NODE,
		type: `n8n-nodes-review-scraping.${endpoint.node}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: endpoint.parameters,
		credentials: { [credential]: credentials[credential] },
		...extra,
	};
}

/** One activated workflow per endpoint, started once per case through its production webhook. */
const workflows = new Map<Endpoint, { id: string; path: string; runs: number }>();

async function workflowFor(endpoint: Endpoint, nodes?: WorkflowNode[]) {
	const existing = workflows.get(endpoint);
	if (existing && !nodes) return existing;
	const path = `faults-${randomUUID()}`;
	const { id: workflowId } = await client.createWorkflow({
		name: `fault matrix: ${endpoint.method} ${endpoint.api} ${endpoint.path}`,
		...chain([webhookNode(path), ...(nodes ?? [nodeFor(endpoint)])]),
	});
	await client.activate(workflowId);
	activated.add(workflowId);
	const created = { id: workflowId, path, runs: 0 };
	if (!nodes) workflows.set(endpoint, created);
	return created;
}

async function run(
	workflow: { id: string; path: string; runs: number },
	body: Record<string, unknown>,
): Promise<Execution> {
	const res = await client.callWebhook(workflow.path, { callback: receiverUrl, ...body }, 20_000);
	await res.arrayBuffer();
	workflow.runs++;
	const [latest] = await client.waitForExecutions(workflow.id, workflow.runs, 60_000);
	return latest;
}

const endpointRequests = (endpoint: Endpoint, path: string) =>
	simulator
		.requests()
		.filter((r) => r.api === endpoint.api && r.method === endpoint.method && r.path === path);

const label = (e: Endpoint) => `${e.method} ${e.api} ${e.path}`;

/** Arranges a case: fresh service state, the resource the node reads, then the fault. */
async function arrange(
	endpoint: Endpoint,
	fault: { kind: Kind; times: number; retryAfterSeconds?: number },
) {
	simulator.reset();
	const ids = await prepare[endpoint.prepare]();
	const path = endpoint.path.replace(':id', ids.id ?? '');
	simulator.clearRequests();
	simulator.injectFault({
		api: endpoint.api,
		method: endpoint.method,
		path,
		kind: fault.kind,
		times: fault.times,
		retryAfterSeconds: fault.retryAfterSeconds ?? RETRY_AFTER_S,
		delayMs: SLOW_MS,
	});
	tally.faultsInjected += fault.times;
	tally.cases++;
	return { ids, path };
}

// Attempts that reach the service for one fault injected once, and whether the item succeeds.
// GET and DELETE are retried on everything but a service-reported failure; a POST only on 429
// (refused before anything was done): a POST that may have been processed is reported, not repeated.
const GET_EXPECTED: Record<Kind, [attempts: number, succeeds: boolean]> = {
	'429': [2, true],
	'500': [2, true],
	'503': [2, true],
	'reset-before': [2, true],
	'reset-after': [2, true],
	slow: [1, true],
	malformed: [2, true],
	'success-false': [1, false],
};
const POST_EXPECTED: Record<Kind, [attempts: number, succeeds: boolean, created: number]> = {
	'429': [2, true, 1],
	'500': [1, false, 0],
	'503': [1, false, 0],
	'reset-before': [1, false, 0],
	'reset-after': [1, false, 1],
	slow: [1, true, 1],
	malformed: [1, false, 1],
	'success-false': [1, false, 0],
};

const KINDS = Object.keys(GET_EXPECTED) as Kind[];

/** What the error must say first: the service's message and HTTP code, or what went wrong. */
const ERROR_TEXT: Record<Kind, string> = {
	'429': 'Too many requests \\| .*answered HTTP 429',
	'500': 'Unknown error occured \\| .*answered HTTP 500',
	'503': 'Service unavailable \\| .*answered HTTP 503',
	'success-false': 'Simulated failure \\| .*answered HTTP 500',
	'reset-before': 'Could not reach the .* \\| ECONNRESET',
	'reset-after': 'Could not reach the .* \\| ECONNRESET',
	malformed: 'not valid JSON',
	slow: 'never',
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The node's error as "message | description", when the execution failed. */
function errorText(execution: Execution): string | undefined {
	if (execution.status !== 'error') return undefined;
	const error = nodeRun(execution, NODE).error;
	return `${error?.message} | ${error?.description}`;
}

/** The error n8n recorded for the node, as the editor shows it. */
function nodeError(execution: Execution) {
	const error = nodeRun(execution, NODE).error as
		{ message: string; description?: string; httpCode?: string } | undefined;
	expect(error).toBeDefined();
	return error!;
}

describe('fault matrix in real n8n: one fault on each endpoint, for every kind', () => {
	const cases = endpoints.flatMap((endpoint) =>
		KINDS.map((kind) => [label(endpoint), kind, endpoint] as const),
	);

	it.each(cases)('%s with %s', async (_label, kind, endpoint) => {
		const workflow = await workflowFor(endpoint);
		const { ids, path } = await arrange(endpoint, { kind, times: 1 });
		const started = Date.now();
		const execution = await run(workflow, ids);
		const attempts = endpointRequests(endpoint, path);
		const [expectedAttempts, succeeds, created] =
			endpoint.method === 'POST' ? POST_EXPECTED[kind] : [...GET_EXPECTED[kind], undefined];
		// A failure must name the endpoint, and the HTTP code and the service's message when it sent one.
		const error = succeeds
			? undefined
			: expect.stringMatching(
					new RegExp(`^(?=.*${ERROR_TEXT[kind]})(?=.*${endpoint.method} ${escape(path)})`, 's'),
				);
		const jobs = endpoint.created ? simulator.counts()[endpoint.created] : undefined;

		expect({
			attempts: attempts.length,
			status: execution.status,
			error: errorText(execution),
			jobs,
		}).toEqual({
			attempts: expectedAttempts,
			status: succeeds ? 'success' : 'error',
			error,
			jobs: created,
		});
		if (endpoint.method === 'POST') {
			tally.postCases++;
			if (jobs! > 1) tally.duplicateJobs += jobs! - 1;
		}
		if (succeeds && endpoint.method !== 'POST') {
			// A DELETE the service carried out before its answer was lost finds the schedule gone on
			// the retry: the node counts that 404 as the delete it was asked for.
			const carriedOutFirst =
				endpoint.method === 'DELETE' && (kind === 'reset-after' || kind === 'malformed');
			expect(attempts.at(-1)?.responseStatus).toBe(carriedOutFirst ? 404 : 200);
			expect(nodeOutput(execution, NODE).length).toBeGreaterThan(0);
		}
		if (kind === '429') expect(Date.now() - started).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
	});
});

describe('fault matrix in real n8n: retries exhausted', () => {
	const get = endpoints.find((e) => e.path === '/api/v2/responds/jobs/:id')!;
	const remove = endpoints.find((e) => e.method === 'DELETE')!;
	const video = endpoints.find((e) => e.api === 'video')!;

	it.each([
		['500', get, '500', 'Unknown error occured'],
		['503', video, '503', 'Service unavailable'],
	] as const)(
		'a GET/DELETE that keeps getting %s stops after the bounded attempts, naming endpoint, code and message',
		async (kind, endpoint, code, message) => {
			const workflow = await workflowFor(endpoint);
			const { ids, path } = await arrange(endpoint, { kind, times: retryPolicy.maxAttempts + 2 });
			const execution = await run(workflow, ids);
			expect(execution.status).toBe('error');
			expect(endpointRequests(endpoint, path)).toHaveLength(retryPolicy.maxAttempts);
			const error = nodeError(execution);
			expect(error.message).toBe(message);
			expect(error.description).toContain(`${endpoint.method} ${path} answered HTTP ${code}`);
			expect(error.description).toContain(`after ${retryPolicy.maxAttempts} attempts`);
		},
	);

	it('a request refused with 429 more often than the attempt limit is sent again and goes through', async () => {
		const refusals = retryPolicy.maxAttempts + 2;
		const workflow = await workflowFor(remove);
		const { ids, path } = await arrange(remove, {
			kind: '429',
			times: refusals,
			retryAfterSeconds: 0,
		});
		const execution = await run(workflow, ids);
		expect(execution.status).toBe('success');
		expect(endpointRequests(remove, path)).toHaveLength(refusals + 1);
	});

	it('a 429 that asks to wait longer than the rate-limit budget fails at once, saying so', async () => {
		const workflow = await workflowFor(remove);
		const { ids, path } = await arrange(remove, { kind: '429', times: 1, retryAfterSeconds: 3600 });
		const execution = await run(workflow, ids);
		expect(execution.status).toBe('error');
		expect(endpointRequests(remove, path)).toHaveLength(1);
		const error = nodeError(execution);
		expect(error.message).toMatch(/kept refusing requests for rate reasons \(HTTP 429\)/);
		expect(error.description).toContain(`${remove.method} ${path}`);
	});

	it('a GET whose connection keeps being reset stops after the bounded attempts and says which endpoint', async () => {
		const endpoint = endpoints.find((e) => e.api === 'social' && e.method === 'GET')!;
		const workflow = await workflowFor(endpoint);
		const { ids, path } = await arrange(endpoint, {
			kind: 'reset-before',
			times: retryPolicy.maxAttempts + 2,
		});
		const execution = await run(workflow, ids);
		expect(execution.status).toBe('error');
		expect(endpointRequests(endpoint, path)).toHaveLength(retryPolicy.maxAttempts);
		const error = nodeError(execution);
		expect(error.message).toBe('Could not reach the Social Scraper');
		expect(error.description).toContain(`GET ${path}`);
		expect(error.description).toContain('ECONNRESET');
	});
});

describe('fault matrix in real n8n: continue on fail', () => {
	it('a GET item whose retries are exhausted is reported; the other items still succeed', async () => {
		const endpoint = endpoints.find((e) => e.path === '/api/v2/responds/jobs/:id')!;
		const workflow = await workflowFor(endpoint, [
			splitOutNode('body.ids'),
			nodeFor(
				{ ...endpoint, parameters: { ...endpoint.parameters, jobId: '={{ $json.id }}' } },
				{ onError: 'continueRegularOutput' },
			),
		]);
		simulator.reset();
		const [first, second, third] = simulator.state.respondJobs;
		simulator.injectFault({
			api: 'review',
			method: 'GET',
			path: `/api/v2/responds/jobs/${second.job_id}`,
			kind: '503',
			times: retryPolicy.maxAttempts,
		});
		tally.faultsInjected += retryPolicy.maxAttempts;
		const execution = await run(workflow, {
			ids: [first, second, third].map((job) => ({ id: job.job_id })),
		});
		expect(execution.status).toBe('success');
		const output = nodeOutput(execution, NODE);
		expect(output).toHaveLength(3);
		expect(output[0]).toEqual(first);
		expect(output[2]).toEqual(third);
		expect(output[1]).toMatchObject({ error: 'Service unavailable' });
		expect(JSON.stringify(output[1])).toContain(`GET /api/v2/responds/jobs/${second.job_id}`);
	});

	it('a POST item that failed is not repeated; the other items are still submitted once each', async () => {
		const endpoint = endpoints.find((e) => e.path === '/api/v2/profiles/add')!;
		const workflow = await workflowFor(endpoint, [
			splitOutNode('body.urls'),
			nodeFor(
				{ ...endpoint, parameters: { ...endpoint.parameters, url: '={{ $json.url }}' } },
				{ onError: 'continueRegularOutput' },
			),
		]);
		simulator.reset();
		simulator.injectFault({ api: 'review', method: 'POST', kind: 'reset-after', times: 1 });
		tally.faultsInjected++;
		const urls = [1, 2, 3].map((n) => ({ url: `https://www.example.com/biz/cof-${n}` }));
		const execution = await run(workflow, { urls });
		expect(execution.status).toBe('success');
		const output = nodeOutput(execution, NODE);
		expect(output).toHaveLength(3);
		// The reset hits whichever item reaches the service first: items run concurrently.
		const failed = output.filter((item) => item.error !== undefined);
		expect(failed).toHaveLength(1);
		expect(String(failed[0].error)).toMatch(/Could not reach/);
		expect(output.filter((item) => item.success === true)).toHaveLength(2);
		const posts = simulator.requests().filter((r) => r.path === '/api/v2/profiles/add');
		// Items run concurrently: the order they reach the service in is not promised.
		expect(posts.map((r) => r.query.url).sort()).toEqual(urls.map((u) => u.url));
		// The reset came after the service queued the first job: three jobs, none twice.
		expect(simulator.counts().jobs).toBe(3);
	});
});
