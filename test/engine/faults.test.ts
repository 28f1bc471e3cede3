import type { IDataObject } from 'n8n-workflow';

import { retryPolicy } from '../../nodes/shared/outgoing/transport';
import type { Fault } from '../../simulator/server';
import { runNode, useSimulator } from './fixtures';

const context = useSimulator();
const TYPE = 'n8n-nodes-review-scraping.reviewScraper';

const addProfile = {
	type: TYPE,
	parameters: { resource: 'profile', operation: 'add', url: 'https://reviews.example.com/biz/f' },
};
const listJobs = {
	type: TYPE,
	parameters: { resource: 'respondJob', operation: 'getAll', returnAll: true },
};

type Kind = Fault['kind'];

// For each injected fault (injected once): how many requests reach the service, whether the node
// succeeds, and how many jobs exist afterwards. The job count is what proves no duplicate POST.
const postMatrix: Array<[Kind, number, boolean, number]> = [
	['429', 2, true, 1],
	['500', 1, false, 0],
	['503', 1, false, 0],
	['reset-before', 1, false, 0],
	['reset-after', 1, false, 1],
	['malformed', 1, false, 1],
	['success-false', 1, false, 0],
	['slow', 1, true, 1],
];

const getMatrix: Array<[Kind, number]> = [
	['429', 2],
	['500', 2],
	['503', 2],
	['reset-before', 2],
	['reset-after', 2],
	['malformed', 2],
	['slow', 1],
];

describe('fault matrix through the engine, over real HTTP', () => {
	it.each(postMatrix)(
		'POST /api/v2/profiles/add with %s: %d request(s), success %s, %d job(s)',
		async (kind, requests, succeeds, jobs) => {
			context.sim.injectFault({
				api: 'review',
				method: 'POST',
				path: '/api/v2/profiles/add',
				kind,
				retryAfterSeconds: 0,
				delayMs: 200,
			});
			const run = await runNode(context.sim, addProfile);
			expect(run.status).toBe(succeeds ? 'success' : 'error');
			expect(context.sim.requests()).toHaveLength(requests);
			expect(context.sim.counts().jobs).toBe(jobs);
			if (!succeeds) {
				const error = run.nodeError('Node Under Test') as unknown as IDataObject;
				expect(String(error.description)).toContain('POST /api/v2/profiles/add');
			}
		},
	);

	it.each(getMatrix)(
		'GET /api/v2/responds/jobs with %s: %d request(s), then success',
		async (kind, requests) => {
			context.sim.injectFault({
				api: 'review',
				method: 'GET',
				kind,
				retryAfterSeconds: 0,
				delayMs: 200,
			});
			const run = await runNode(context.sim, listJobs);
			expect(run.status).toBe('success');
			expect(run.items().length).toBeGreaterThan(0);
			expect(context.sim.requests()).toHaveLength(requests);
		},
	);

	it('gives up on a GET after the bounded number of attempts and names endpoint, code and message', async () => {
		context.sim.injectFault({ api: 'review', method: 'GET', kind: '500', times: 10 });
		const run = await runNode(context.sim, listJobs);
		expect(run.status).toBe('error');
		expect(context.sim.requests()).toHaveLength(retryPolicy.maxAttempts);
		expect(run.nodeError('Node Under Test')).toMatchObject({
			message: 'Unknown error occured',
			httpCode: '500',
		});
		const description = String(
			(run.nodeError('Node Under Test') as unknown as IDataObject).description,
		);
		expect(description).toContain('GET /api/v2/responds/jobs answered HTTP 500');
		expect(description).toContain(`after ${retryPolicy.maxAttempts} attempts`);
	});

	it('Add Many: a failed bulk POST is not repeated and, with Continue On Fail, later batches still go', async () => {
		context.sim.injectFault({
			api: 'review',
			path: '/api/v2/profiles/add_bulk',
			kind: '500',
			times: 1,
		});
		const run = await runNode(
			context.sim,
			{
				type: TYPE,
				parameters: {
					resource: 'profile',
					operation: 'addMany',
					inputMode: 'defineBelow',
					url: '={{ "https://reviews.example.com/biz/" + $json.n }}',
					options: { batchSize: 3 },
				},
				continueOnFail: true,
			},
			Array.from({ length: 7 }, (_, n) => ({ n })),
		);
		expect(run.status).toBe('success');
		expect(context.sim.requests()).toHaveLength(3);
		const items = run.pairs();
		expect(items).toHaveLength(7);
		expect(items.slice(0, 3).every((item) => item.json.httpCode === '500')).toBe(true);
		expect(items.slice(3).every((item) => item.json.success === true)).toBe(true);
		expect(context.sim.counts().bulkJobs).toBe(4);
	});
});
