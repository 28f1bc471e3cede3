import type { IDataObject } from 'n8n-workflow';

import { ENDPOINTS } from '../../nodes/shared/endpoints';
import { retryPolicy } from '../../nodes/shared/outgoing/transport';
import type { Fault } from '../../simulator/server';
import { runNode, startReceiver, useSimulator } from './fixtures';
import { expectedWorkflows, runOperation } from './workflows';

/**
 * One fault on each endpoint of the endpoint table, for every kind, injected into the operation
 * workflow (`<Node>/<resource>/<operation>.workflow.json`) that calls it. A submission refused in
 * HTTP 200 or in the API's error shape is no transport fault: settingsMatrix.test.ts covers those.
 */
type Kind = Exclude<Fault['kind'], 'failed-200' | 'refused'>;
const context = useSimulator();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => (receiver = await startReceiver()));
afterAll(async () => await receiver.close());

// Attempts that reach the service for one fault injected once, and whether the item succeeds. GET
// and DELETE are retried on everything but a failure the service reports; a POST only on 429
// (refused before anything was done): a POST that may have been processed is reported, not repeated.
const RETRIED: Record<Kind, [attempts: number, succeeds: boolean]> = {
	'429': [2, true],
	'500': [2, true],
	'503': [2, true],
	'reset-before': [2, true],
	'reset-after': [2, true],
	slow: [1, true],
	malformed: [2, true],
	'success-false': [1, false],
};
const POSTED: Record<Kind, [attempts: number, succeeds: boolean]> = {
	...RETRIED,
	'500': [1, false],
	'503': [1, false],
	'reset-before': [1, false],
	'reset-after': [1, false],
	malformed: [1, false],
};
/** What the error must say: the service's message and HTTP code, or what went wrong. */
const ERROR_TEXT: Record<Kind, RegExp> = {
	'429': /Too many requests \| .*answered HTTP 429/s,
	'500': /Unknown error occured \| .*answered HTTP 500/s,
	'503': /Service unavailable \| .*answered HTTP 503/s,
	'success-false': /Simulated failure \| .*answered HTTP 500/s,
	'reset-before': /Could not reach the .* \| .*ECONNRESET/s,
	'reset-after': /Could not reach the .* \| .*ECONNRESET/s,
	malformed: /not valid JSON/,
	slow: /never/,
};

const pattern = (path: string) => new RegExp(`^${path.replace(/:[a-z_]+/g, '[^/]+')}$`);
const workflows = expectedWorkflows();
/** Each endpoint with the smallest operation workflow whose node under test calls it. */
const endpoints = ENDPOINTS.endpoints.map((endpoint) => {
	const calling = workflows
		.filter(({ workflow }) => workflow.requests.length > 0)
		.filter(({ workflow }) => {
			const last = workflow.requests[workflow.requests.length - 1];
			return (
				workflow.requests.some(
					(r) =>
						r.api === endpoint.api &&
						r.method === endpoint.method &&
						pattern(endpoint.path).test(r.path),
				) && last.api === endpoint.api
			);
		})
		.sort((a, b) => a.workflow.nodes.length - b.workflow.nodes.length);
	return {
		label: `${endpoint.method} ${endpoint.api} ${endpoint.path}`,
		endpoint,
		use: calling[0],
	};
});

it('has an operation workflow for every endpoint of the table', () => {
	expect(endpoints.filter(({ use }) => !use).map(({ label }) => label)).toEqual([]);
});

const KINDS = Object.keys(RETRIED) as Kind[];
describe.each(endpoints.filter(({ use }) => use))('$label', ({ endpoint, use }) => {
	it.each(KINDS)('with %s', async (kind) => {
		let path = '';
		const { run, node, requests } = await runOperation(context.sim, receiver.url, use.workflow, {
			arranged: () => {
				// The concrete path is the one the workflow file expects: the simulator's IDs are stable.
				path = use.workflow.requests.find(
					(r) => r.method === endpoint.method && pattern(endpoint.path).test(r.path),
				)!.path;
				context.sim.injectFault({
					api: endpoint.api,
					method: endpoint.method,
					path,
					kind,
					retryAfterSeconds: 0,
					delayMs: 200,
				});
			},
		});
		const attempts = requests.filter(
			(r) => r.api === endpoint.api && r.method === endpoint.method && r.path === path,
		);
		const [expected, succeeds] = (endpoint.method === 'POST' ? POSTED : RETRIED)[kind];
		const error = run.nodeError(node) as unknown as IDataObject | undefined;
		expect({
			attempts: attempts.length,
			status: run.status,
			error: error && `${error.message} | ${error.description}`,
		}).toEqual({
			attempts: expected,
			status: succeeds ? 'success' : 'error',
			error: succeeds
				? undefined
				: expect.stringMatching(new RegExp(`${ERROR_TEXT[kind].source}`, 's')),
		});
		if (!succeeds) expect(String(error?.description)).toContain(`${endpoint.method} ${path}`);
		else {
			// A DELETE the service carried out before its answer was lost finds the schedule gone on
			// the retry: the node counts that 404 as the delete it was asked for.
			const carriedOutFirst =
				endpoint.method === 'DELETE' && (kind === 'reset-after' || kind === 'malformed');
			const answered = attempts.at(-1)?.responseStatus;
			expect(carriedOutFirst ? answered === 404 : answered! < 300).toBe(true);
		}
	});
});

/** Runs an operation's workflow with a fault on its first request of `method`. */
async function withFault(
	file: string,
	method: string,
	fault: Partial<Parameters<typeof context.sim.injectFault>[0]>,
) {
	const { workflow } = workflows.find((w) => w.file === file)!;
	const path = workflow.requests.find((r) => r.method === method)!.path;
	const result = await runOperation(context.sim, receiver.url, workflow, {
		arranged: () =>
			void context.sim.injectFault({ method, path, kind: '500', retryAfterSeconds: 0, ...fault }),
	});
	const attempts = result.requests.filter((r) => r.method === method && r.path === path).length;
	const error = result.run.nodeError(result.node) as unknown as IDataObject | undefined;
	return { ...result, path, attempts, error };
}

describe('retries exhausted', () => {
	const beyond = retryPolicy.maxAttempts + 2;

	it.each([
		['500', 'ReviewScraper/respondJob/get.workflow.json', 'Unknown error occured'],
		['503', 'SocialScraper/videoRequest/getStatus.workflow.json', 'Service unavailable'],
	] as const)(
		'a GET that keeps getting %s stops after the bounded attempts, naming endpoint, code and message',
		async (kind, file, message) => {
			const { run, attempts, error, path } = await withFault(file, 'GET', { kind, times: beyond });
			expect([run.status, attempts, error?.message]).toEqual([
				'error',
				retryPolicy.maxAttempts,
				message,
			]);
			expect(error?.description).toContain(`GET ${path} answered HTTP ${kind}`);
			expect(error?.description).toContain(`after ${retryPolicy.maxAttempts} attempts`);
		},
	);

	it('a GET whose connection keeps being reset stops after the bounded attempts and says which endpoint', async () => {
		const file = 'SocialScraper/socialPost/getResults.workflow.json';
		const { run, attempts, error, path } = await withFault(file, 'GET', {
			kind: 'reset-before',
			times: beyond,
		});
		expect([run.status, attempts, error?.message]).toEqual([
			'error',
			retryPolicy.maxAttempts,
			'Could not reach the Social Scraper',
		]);
		expect(error?.description).toContain('ECONNRESET');
		expect(error?.description).toContain(`GET ${path}`);
	});

	it('a request refused with 429 more often than the attempt limit is sent again and goes through', async () => {
		const file = 'ScrapingScheduler/schedule/deleteSchedule.workflow.json';
		const { run, attempts } = await withFault(file, 'DELETE', { kind: '429', times: beyond });
		expect([run.status, attempts]).toEqual(['success', beyond + 1]);
	});

	it('a 429 that asks to wait longer than the rate-limit budget fails at once, saying so', async () => {
		const file = 'ScrapingScheduler/schedule/deleteSchedule.workflow.json';
		const { run, attempts, error, path } = await withFault(file, 'DELETE', {
			kind: '429',
			retryAfterSeconds: 3600,
		});
		expect([run.status, attempts]).toEqual(['error', 1]);
		expect(error?.message).toMatch(/kept refusing requests for rate reasons \(HTTP 429\)/);
		expect(error?.description).toContain(`DELETE ${path}`);
	});
});

describe('continue on fail', () => {
	const REVIEW = 'n8n-nodes-review-scraping.reviewScraper';

	it('a POST item that failed is not repeated; the other items are still submitted once each', async () => {
		context.sim.injectFault({ api: 'review', method: 'POST', kind: 'reset-after', times: 1 });
		const urls = [1, 2, 3].map((n) => ({ url: `https://reviews.example.com/biz/cof-${n}` }));
		const run = await runNode(
			context.sim,
			{
				type: REVIEW,
				continueOnFail: true,
				parameters: { resource: 'profile', operation: 'add', url: '={{ $json.url }}' },
			},
			urls,
		);
		const items = run.items();
		expect(items.filter((item) => /Could not reach/.test(String(item.error)))).toHaveLength(1);
		expect(items.filter((item) => item.success === true)).toHaveLength(2);
		expect(
			context.sim
				.requests()
				.map((r) => r.query.url)
				.sort(),
		).toEqual(urls.map((u) => u.url));
		// The reset came after the service queued the job: three jobs, none twice.
		expect(context.sim.counts().jobs).toBe(3);
	});
});
