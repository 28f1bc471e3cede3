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

function expectWaitTill(waiting: { waitTill?: Date | null }, before: number, minutes: number) {
	const waitTill = new Date(waiting.waitTill as Date).getTime();
	expect(waitTill).toBeGreaterThanOrEqual(before + minutes * 60_000 - 1000);
	expect(waitTill).toBeLessThanOrEqual(Date.now() + minutes * 60_000 + 1000);
}

/**
 * Runs the node until it waits and lets the service deliver to a receiver standing in for n8n's
 * waiting-webhook endpoint; `resume` hands the delivery (or another body) to the node.
 */
async function untilDelivered(node: IDataObject, input: IDataObject[] = [{}]) {
	const receiver = await startReceiver();
	try {
		const spec = node as typeof addAndWait;
		const waiting = await runNode(context.sim, spec, input, { baseUrl: receiver.url });
		expect(waiting.status).toBe('waiting');
		await context.sim.waitForDeliveries(1, 5000);
		const [delivery] = receiver.received;
		const [ack] = waiting.items();
		const resume = (body: IDataObject = delivery.body) => waiting.resume({ body, path: NODE_ID });
		return { waiting, delivery, ack, resume };
	} finally {
		await receiver.close();
	}
}

describe('Wait for Completion (Profile → Add)', () => {
	it('sends the resume URL with the node ID as callback, waits, and resumes with the reviews', async () => {
		const before = Date.now();
		const { waiting, delivery, ack, resume } = await untilDelivered(addAndWait);
		expectWaitTill(waiting, before, 30);

		const [request] = context.sim.requests();
		const callback = new URL(String(request.query.callback));
		const resumeUrl = new URL(waiting.resumeUrl);
		expect(resumeUrl.pathname).toMatch(/^\/webhook-waiting\/[\w-]+$/);
		expect(callback.pathname).toBe(`${resumeUrl.pathname}/${NODE_ID}`);
		expect(callback.searchParams.get('signature')).toBe(resumeUrl.searchParams.get('signature'));
		expect(callback.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
		expect(delivery.url).toBe(`${resumeUrl.pathname}/${NODE_ID}${resumeUrl.search}`);
		expect(delivery.body.job_id).toBe(ack.job_id);

		const resumed = await resume();
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

	const invalidUrlJob = async (onError?: string, input: IDataObject = {}) => {
		const parameters = { ...addAndWait.parameters, url: 'https://maps.example/invalid-url/9' };
		const job = await untilDelivered({ ...addAndWait, ...(onError && { onError }), parameters }, [
			input,
		]);
		expect(job.delivery.body.crawl_status).toBe('invalid_url');
		const failure = `Job ${job.ack.job_id} ended with status "invalid_url" (invalid_url), not completed`;
		return { ack: job.ack, failure, resumed: await job.resume() };
	};

	it('fails the node when the job ends invalid_url, naming the job and the status', async () => {
		const { failure, resumed } = await invalidUrlJob();
		expect(resumed.webhookResponse).toEqual({ received: true });
		expect(resumed.status).toBe('error');
		expect(resumed.error?.message).toBe(failure);
	});

	it('with an error output, puts the error item for an invalid_url job on that output', async () => {
		const { ack, failure, resumed } = await invalidUrlJob('continueErrorOutput', {
			customer: 'acme',
		});
		expect(resumed.status).toBe('success');
		expect(resumed.json('Node Under Test', 0)).toEqual([]);
		const [item, ...more] = resumed.json('Node Under Test', 1);
		expect(more).toEqual([]);
		// n8n's error output keeps `error`, `message` and `details` of an item, merged into its input.
		expect(item).toMatchObject({
			customer: 'acme',
			error: failure,
			message: expect.stringMatching(/^The service could not collect from the given URL/),
			details: { outcome: 'invalid_url', wait_status: 'invalid_url', id: String(ack.job_id) },
		});
	});

	it('with Continue On Fail, outputs an error item for an invalid_url job and goes on', async () => {
		const { ack, failure, resumed } = await invalidUrlJob('continueRegularOutput');
		expect(resumed.status).toBe('success');
		const [item] = resumed.json('Node Under Test');
		expect(item).toMatchObject({
			error: failure,
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
		expectWaitTill(waiting, before, minutes);
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
	const social = 'n8n-nodes-review-scraping.socialScraper';
	const submits: Array<[string, IDataObject]> = [
		[
			'E-commerce Search → Product → Search',
			{
				type: 'n8n-nodes-review-scraping.ecommerceSearch',
				parameters: { resource: 'product', operation: 'search', keyword: 'headphones' },
			},
		],
		[
			'Social Scraper → Photo Post → Search',
			{
				type: social,
				parameters: { resource: 'photoPost', operation: 'search', keyword: '#pizza' },
			},
		],
		[
			'Social Scraper → Social Post → Scrape',
			{
				type: social,
				parameters: {
					resource: 'socialPost',
					operation: 'scrape',
					url: 'https://social.example.com/p/1',
				},
			},
		],
	];
	const resultCount = (payload: IDataObject) => (payload.results as unknown[]).length;

	const waitingSpec = (node: IDataObject, typeVersion?: number) => ({
		...node,
		id: NODE_ID,
		...(typeVersion ? { typeVersion } : {}),
		parameters: { ...(node.parameters as IDataObject), waitForCompletion: true },
	});

	/** Submits with Wait for Completion, lets the service deliver, and resumes with the delivery. */
	async function submitAndResume(node: IDataObject, typeVersion?: number) {
		context.sim.configure({ ecommerceResponse: 'ack', productCount: 12, photoPostCount: 9 });
		const { ack, delivery, resume } = await untilDelivered(waitingSpec(node, typeVersion), [
			{ row: 7 },
		]);
		expect(delivery.body.request_id).toBe(ack.request_id);
		return { ack, delivered: delivery.body, resumed: await resume() };
	}

	// n8n links resumed item i to the waiting node's input item i: one input item, one item out.
	it.each(submits)(
		'%s waits and resumes with one item holding every result, linked to the input item',
		async (_name, node) => {
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
		async (_name, node) => {
			const { ack, delivered, resumed } = await submitAndResume(node, 1);
			const items = resumed.json('Node Under Test');
			expect(items).toHaveLength(resultCount(delivered));
			for (const item of items)
				expect(item).toMatchObject({ request_id: ack.request_id, wait_status: 'completed' });
		},
	);

	it('Social Post → Scrape fails the item when the request ends login_required', async () => {
		const { ack, delivery, resume } = await untilDelivered(waitingSpec(submits[2][1]));
		const resumed = await resume({ ...delivery.body, status: 'login_required', results: [] });
		expect(resumed.status).toBe('error');
		expect(resumed.error?.message).toBe(
			`Request ${ack.request_id} ended with status "login_required" (failed), not completed`,
		);
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
		const { waiting, delivery, resume } = await untilDelivered(photoSearch);
		expect(delivery.body.results).toEqual([]);
		const signature = new URL(waiting.resumeUrl).searchParams.get('signature') as string;
		expect(JSON.stringify(delivery.body)).toContain(signature);
		const resumed = await resume();
		expect(resumed.status).toBe('success');
		const items = resumed.json('Node Under Test');
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			request_id: delivery.body.request_id,
			wait_status: 'completed',
			outcome: 'completed',
			result_count: 0,
		});
		expect(JSON.stringify(items)).not.toContain(signature);
	});

	it('keeps waiting when a delivery reports a status that is not final, then resumes on the final one', async () => {
		const { delivery, resume } = await untilDelivered({
			...photoSearch,
			parameters: { ...photoSearch.parameters, keyword: '#later' },
		});
		const notYet = { ...delivery.body, status: 'in_progress', results: [] };
		expect(await resume(notYet).catch((e: unknown) => e)).toBeInstanceOf(ResumeRefusedError);
		const resumed = await resume();
		expect(resumed.status).toBe('success');
		expect(resumed.json('Node Under Test').length).toBeGreaterThan(0);
	});
});

describe('Wait for Completion with Retry On Fail', () => {
	it('a submission refused on the first try is sent again, and the execution waits once for its one job', async () => {
		context.sim.injectFault({ api: 'review', kind: 'refused', times: 1 });
		const { ack, resume } = await untilDelivered({
			...addAndWait,
			retryOnFail: true,
			maxTries: 3,
			waitBetweenTries: 1,
		});
		expect(context.sim.submissions()['https://reviews.example.com/biz/wait']).toBe(2);
		expect(context.sim.counts().jobs).toBe(1);
		const resumed = await resume();
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
