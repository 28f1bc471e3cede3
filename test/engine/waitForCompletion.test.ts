import type { IDataObject } from 'n8n-workflow';

import { MANY_PROFILES_GUIDE } from '../../nodes/shared/waiting/wait';
import { ResumeRefusedError } from './harness';
import { runNode, startReceiver, useSimulator } from './fixtures';

const context = useSimulator();
const TYPE = 'n8n-nodes-review-scraping.reviewScraper';
const NODE_ID = 'review-scraper-node-id';

const addAndWait = {
	id: NODE_ID,
	type: TYPE,
	parameters: {
		resource: 'profile',
		operation: 'add',
		url: 'https://reviews.example.com/biz/wait',
		waitForCompletion: true,
		waitTimeLimitAmount: 30,
		waitTimeLimitUnit: 'minutes',
	},
};

describe('Wait for Completion (Profile → Add)', () => {
	it('sends the resume URL with the node ID as callback, waits, and resumes with the reviews', async () => {
		const receiver = await startReceiver();
		const before = Date.now();
		const waiting = await runNode(context.sim, addAndWait, [{}], { baseUrl: receiver.url });
		expect(waiting.status).toBe('waiting');
		const waitTill = new Date(waiting.waitTill as Date).getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);

		const [request] = context.sim.requests();
		const callback = new URL(String(request.query.callback));
		const resume = new URL(waiting.resumeUrl);
		expect(callback.pathname).toBe(`${resume.pathname}/${NODE_ID}`);
		expect(callback.searchParams.get('signature')).toBe(resume.searchParams.get('signature'));
		expect(callback.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);

		// The receiver stands in for n8n's waiting-webhook endpoint: what reaches it is handed to the node.
		await context.sim.waitForDeliveries(1, 5000);
		await receiver.close();
		const [delivered] = receiver.received;
		expect(delivered.url).toBe(`${resume.pathname}/${NODE_ID}${resume.search}`);
		const [ack] = waiting.items();
		expect(delivered.body.job_id).toBe(ack.job_id);

		const resumed = await waiting.resume({ body: delivered.body, path: NODE_ID });
		expect(resumed.status).toBe('success');
		const [result] = resumed.json('Node Under Test');
		expect(result).toMatchObject({
			job_id: ack.job_id,
			crawl_status: 'complete',
			wait_status: 'completed',
			outcome: 'completed',
		});
		expect(typeof result.meta_data).toBe('object');
		expect(typeof result.meta_data_raw).toBe('string');
		expect(Array.isArray(result.reviews)).toBe(true);
	});

	const invalidUrlJob = async (node: object, input: IDataObject = {}) => {
		const receiver = await startReceiver();
		const waiting = await runNode(
			context.sim,
			{
				...addAndWait,
				...node,
				parameters: { ...addAndWait.parameters, url: 'https://maps.example/invalid-url/9' },
			},
			[input],
			{ baseUrl: receiver.url },
		);
		await context.sim.waitForDeliveries(1, 5000);
		await receiver.close();
		const [delivered] = receiver.received;
		expect(delivered.body.crawl_status).toBe('invalid_url');
		const [ack] = waiting.items();
		return { ack, resumed: await waiting.resume({ body: delivered.body, path: NODE_ID }) };
	};

	it('fails the node when the job ends invalid_url, naming the job and the status', async () => {
		const { ack, resumed } = await invalidUrlJob({});
		expect(resumed.webhookResponse).toEqual({ received: true });
		expect(resumed.status).toBe('error');
		expect(resumed.error?.message).toBe(
			`Job ${ack.job_id} ended with status "invalid_url" (invalid_url), not completed`,
		);
	});

	it('with an error output, puts the error item for an invalid_url job on that output', async () => {
		const { ack, resumed } = await invalidUrlJob(
			{ onError: 'continueErrorOutput' },
			{ customer: 'acme' },
		);
		expect(resumed.status).toBe('success');
		expect(resumed.json('Node Under Test', 0)).toEqual([]);
		const [item, ...more] = resumed.json('Node Under Test', 1);
		expect(more).toEqual([]);
		// n8n's error output keeps `error`, `message` and `details` of an item, merged into its input.
		expect(item).toMatchObject({
			customer: 'acme',
			error: `Job ${ack.job_id} ended with status "invalid_url" (invalid_url), not completed`,
			message: expect.stringMatching(/^The service could not collect from the given URL/),
			details: { outcome: 'invalid_url', wait_status: 'invalid_url', id: String(ack.job_id) },
		});
	});

	it('with Continue On Fail, outputs an error item for an invalid_url job and goes on', async () => {
		const { ack, resumed } = await invalidUrlJob({ onError: 'continueRegularOutput' });
		expect(resumed.status).toBe('success');
		const [item] = resumed.json('Node Under Test');
		expect(item).toMatchObject({
			error: `Job ${ack.job_id} ended with status "invalid_url" (invalid_url), not completed`,
			outcome: 'invalid_url',
			wait_status: 'invalid_url',
			id: String(ack.job_id),
		});
	});

	it.each([
		// 2 days by default: past the service's retry 24 h after a refused first attempt.
		[1.3, {}, 2 * 24 * 60],
		[1.2, { waitTimeLimitAmount: 3, waitTimeLimitUnit: 'hours' }, 180],
		[1.2, { waitTimeLimitAmount: 1, waitTimeLimitUnit: 'days' }, 1440],
		// Versions before 1.2 keep their time limit in minutes, as workflows saved with them have it.
		[1.1, { waitTimeLimit: 45 }, 45],
		[1, { waitTimeLimit: 45, waitTimeLimitAmount: 3 }, 45],
	])('version %s with %j waits %i minutes', async (typeVersion, limit, minutes) => {
		const { waitTimeLimitAmount: _, waitTimeLimitUnit: __, ...parameters } = addAndWait.parameters;
		const before = Date.now();
		const waiting = await runNode(context.sim, {
			...addAndWait,
			typeVersion,
			parameters: { ...parameters, ...limit },
		});
		expect(waiting.status).toBe('waiting');
		const waitTill = new Date(waiting.waitTill as Date).getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + minutes * 60_000 - 1000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + minutes * 60_000 + 1000);
	});

	it('refuses a callback for another job and keeps waiting', async () => {
		const waiting = await runNode(context.sim, addAndWait);
		const [ack] = waiting.items();
		const stranger = { job_id: Number(ack.job_id) + 1000, status: 'complete', reviews: [] };
		const refusal = await waiting
			.resume({ body: stranger, path: NODE_ID })
			.catch((e: unknown) => e);
		expect(refusal).toBeInstanceOf(ResumeRefusedError);
		expect((refusal as ResumeRefusedError).status).toBe(422);
	});

	it('on time-out passes the input items on, without wait_status', async () => {
		const waiting = await runNode(context.sim, addAndWait, [{ customer: 'acme' }]);
		const expired = await waiting.expire();
		expect(expired.status).toBe('success');
		expect(expired.json('Node Under Test')).toEqual([{ customer: 'acme' }]);
	});

	it('refuses several input items before sending anything, explaining the alternatives', async () => {
		const run = await runNode(context.sim, addAndWait, [{}, {}]);
		expect(run.status).toBe('error');
		expect(run.error?.message).toBe('Wait for Completion works with one input item, got 2');
		const description = String((run.error as unknown as IDataObject).description);
		expect(description).toContain('Scraping Callback Trigger');
		expect(description).toContain(MANY_PROFILES_GUIDE);
		expect(context.sim.requests()).toHaveLength(0);
	});
});

describe('Wait for Completion on the other submit operations', () => {
	const submits: Array<[string, IDataObject, (payload: IDataObject) => number]> = [
		[
			'E-commerce Search → Product → Search',
			{
				type: 'n8n-nodes-review-scraping.ecommerceSearch',
				parameters: { resource: 'product', operation: 'search', keyword: 'headphones' },
			},
			(payload) => (payload.results as unknown[]).length,
		],
		[
			'Social Scraper → Photo Post → Search',
			{
				type: 'n8n-nodes-review-scraping.socialScraper',
				parameters: { resource: 'photoPost', operation: 'search', keyword: '#pizza' },
			},
			(payload) => (payload.results as unknown[]).length,
		],
		[
			'Social Scraper → Social Post → Scrape',
			{
				type: 'n8n-nodes-review-scraping.socialScraper',
				parameters: {
					resource: 'socialPost',
					operation: 'scrape',
					url: 'https://social.example.com/p/1',
				},
			},
			(payload) => (payload.results as unknown[]).length,
		],
	];

	/** Submits with Wait for Completion, lets the service deliver, and resumes with the delivery. */
	async function submitAndResume(node: IDataObject, typeVersion?: number) {
		context.sim.configure({ ecommerceResponse: 'ack', productCount: 12, photoPostCount: 9 });
		const receiver = await startReceiver();
		try {
			const spec = {
				...node,
				id: NODE_ID,
				...(typeVersion ? { typeVersion } : {}),
				parameters: { ...(node.parameters as IDataObject), waitForCompletion: true },
			} as typeof addAndWait;
			const waiting = await runNode(context.sim, spec, [{ row: 7 }], { baseUrl: receiver.url });
			expect(waiting.status).toBe('waiting');
			const [ack] = waiting.items();
			await context.sim.waitForDeliveries(1, 5000);
			const [delivered] = receiver.received;
			expect(delivered.body.request_id).toBe(ack.request_id);
			const resumed = await waiting.resume({ body: delivered.body, path: NODE_ID });
			return { ack, delivered: delivered.body, resumed };
		} finally {
			await receiver.close();
		}
	}

	// n8n links resumed item i to the waiting node's input item i: one input item, one item out.
	it.each(submits)(
		'%s waits and resumes with one item holding every result, linked to the input item',
		async (_name, node, resultCount) => {
			const { ack, delivered, resumed } = await submitAndResume(node);
			const run = resumed.runData['Node Under Test'].at(-1)!;
			const items = run.data!.main[0]!;
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			const [item] = items.map((i) => i.json);
			expect(item).toMatchObject({
				request_id: ack.request_id,
				wait_status: 'completed',
				result_count: resultCount(delivered),
			});
			expect((item.results as unknown[]).length).toBe(resultCount(delivered));
			expect(resultCount(delivered)).toBeGreaterThan(0);
		},
	);

	it.each(submits)(
		'%s in node version 1 keeps one item per result, as workflows saved with it expect',
		async (_name, node, resultCount) => {
			const { ack, delivered, resumed } = await submitAndResume(node, 1);
			const items = resumed.json('Node Under Test');
			expect(items).toHaveLength(resultCount(delivered));
			for (const item of items)
				expect(item).toMatchObject({ request_id: ack.request_id, wait_status: 'completed' });
		},
	);

	it('Social Post → Scrape fails the item when the request ends login_required', async () => {
		const receiver = await startReceiver();
		try {
			const spec = {
				...submits[2][1],
				id: NODE_ID,
				parameters: { ...(submits[2][1].parameters as IDataObject), waitForCompletion: true },
			} as typeof addAndWait;
			const waiting = await runNode(context.sim, spec, [{}], { baseUrl: receiver.url });
			const [ack] = waiting.items();
			await context.sim.waitForDeliveries(1, 5000);
			const [delivered] = receiver.received;
			const body = { ...delivered.body, status: 'login_required', results: [] };
			const resumed = await waiting.resume({ body, path: NODE_ID });
			expect(resumed.status).toBe('error');
			expect(resumed.error?.message).toBe(
				`Request ${ack.request_id} ended with status "login_required" (failed), not completed`,
			);
		} finally {
			await receiver.close();
		}
	});

	it('E-commerce Search does not wait when the service answers with the results at once', async () => {
		context.sim.configure({ ecommerceResponse: 'envelope', productCount: 5 });
		const run = await runNode(context.sim, {
			type: 'n8n-nodes-review-scraping.ecommerceSearch',
			parameters: {
				resource: 'product',
				operation: 'search',
				keyword: 'headphones',
				waitForCompletion: true,
			},
		});
		expect(run.status).toBe('success');
		const [item, ...more] = run.items();
		expect(more).toEqual([]);
		expect(item).toMatchObject({ wait_status: 'completed', result_count: 5 });
		expect(item.results).toHaveLength(5);
	});
});

describe('Wait for Completion at the edges: refused, empty, not final', () => {
	const photoSearch = {
		id: NODE_ID,
		type: 'n8n-nodes-review-scraping.socialScraper',
		parameters: {
			resource: 'photoPost',
			operation: 'search',
			keyword: '#nothing',
			waitForCompletion: true,
		},
	};

	it('fails the item with the service message when the submission is refused in HTTP 200, and does not wait', async () => {
		context.sim.injectFault({ api: 'photo', method: 'POST', kind: 'failed-200' });
		const run = await runNode(context.sim, photoSearch);
		expect(run.status).toBe('error');
		expect(run.waitTill).toBeUndefined();
		expect(run.error?.message).toBe('Request refused: not enough credits');
		expect(String((run.error as unknown as IDataObject).description)).toMatch(
			/request refused-\d+/,
		);
	});

	it('resumes with one item (result_count 0) when the search completes with no posts, and leaks no signature', async () => {
		context.sim.configure({ photoPostCount: 0 });
		const receiver = await startReceiver();
		try {
			const waiting = await runNode(context.sim, photoSearch, [{}], { baseUrl: receiver.url });
			expect(waiting.status).toBe('waiting');
			await context.sim.waitForDeliveries(1, 5000);
			const [delivered] = receiver.received;
			expect(delivered.body.results).toEqual([]);
			const signature = new URL(waiting.resumeUrl).searchParams.get('signature') as string;
			expect(JSON.stringify(delivered.body)).toContain(signature);
			const resumed = await waiting.resume({ body: delivered.body, path: NODE_ID });
			expect(resumed.status).toBe('success');
			const items = resumed.json('Node Under Test');
			expect(items).toHaveLength(1);
			expect(items[0]).toMatchObject({
				request_id: delivered.body.request_id,
				wait_status: 'completed',
				outcome: 'completed',
				result_count: 0,
			});
			expect(JSON.stringify(items)).not.toContain(signature);
		} finally {
			await receiver.close();
			context.sim.configure({ photoPostCount: 9 });
		}
	});

	it('keeps waiting when a delivery reports a status that is not final, then resumes on the final one', async () => {
		const receiver = await startReceiver();
		try {
			const waiting = await runNode(
				context.sim,
				{ ...photoSearch, parameters: { ...photoSearch.parameters, keyword: '#later' } },
				[{}],
				{ baseUrl: receiver.url },
			);
			await context.sim.waitForDeliveries(1, 5000);
			const [delivered] = receiver.received;
			const notYet = { ...delivered.body, status: 'in_progress', results: [] };
			const refusal = await waiting
				.resume({ body: notYet, path: NODE_ID })
				.catch((e: unknown) => e);
			expect(refusal).toBeInstanceOf(ResumeRefusedError);
			const resumed = await waiting.resume({ body: delivered.body, path: NODE_ID });
			expect(resumed.status).toBe('success');
			expect(resumed.json('Node Under Test').length).toBeGreaterThan(0);
		} finally {
			await receiver.close();
		}
	});
});

describe('Wait for Completion with Retry On Fail', () => {
	it('a submission refused on the first try is sent again, and the execution waits once for its one job', async () => {
		const receiver = await startReceiver();
		context.sim.injectFault({ api: 'review', kind: 'refused', times: 1 });
		const waiting = await runNode(
			context.sim,
			{ ...addAndWait, retryOnFail: true, maxTries: 3, waitBetweenTries: 1 },
			[{}],
			{ baseUrl: receiver.url },
		);
		expect(waiting.status).toBe('waiting');
		expect(context.sim.submissions()['https://reviews.example.com/biz/wait']).toBe(2);
		expect(context.sim.counts().jobs).toBe(1);
		await context.sim.waitForDeliveries(1, 5000);
		await receiver.close();
		const [ack] = waiting.items();
		const resumed = await waiting.resume({ body: receiver.received[0].body, path: NODE_ID });
		expect(resumed.status).toBe('success');
		expect(resumed.json('Node Under Test')).toEqual([
			expect.objectContaining({ job_id: ack.job_id, wait_status: 'completed' }),
		]);
	});

	it('a submission the service answered with a 5xx is not sent again by the retry, which fails saying so', async () => {
		context.sim.injectFault({ api: 'review', kind: '500', times: 1 });
		const failed = await runNode(context.sim, {
			...addAndWait,
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 1,
		});
		expect(failed.status).toBe('error');
		expect(context.sim.submissions()['https://reviews.example.com/biz/wait']).toBe(1);
		const error = failed.nodeError('Node Under Test') as { description?: string };
		expect(error.description).toContain('Not sent again by Retry On Fail');
	});
});
