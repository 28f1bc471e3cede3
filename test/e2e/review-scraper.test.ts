import { randomUUID } from 'node:crypto';

import { ReviewJobCallback } from '../../simulator/schemas';
import { asDelivered } from './harness/delivered';
import type { WorkflowNode } from './harness/client';
import { resumeProof } from './harness/compat';
import {
	chain,
	nodeOutput,
	REVIEW_SCRAPER,
	runThroughWebhook,
	splitOutNode,
	webhookNode,
} from './harness/workflows';
import { useE2e } from './harness/suite';

const { client, state, simulator, credentials } = useE2e({ credentials: 'review scraper e2e' });

function reviewScraper(
	parameters: Record<string, unknown>,
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Review Scraper',
		type: REVIEW_SCRAPER,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { reviewScraperApi: credentials.reviewScraperApi },
		...extra,
	};
}

/** What the simulator answers to a direct, correctly authenticated call. */
async function direct(path: string): Promise<unknown> {
	const res = await fetch(`${simulator.urls.baseUrl}${path}`, {
		headers: { 'spiderman-token': simulator.config.token },
	});
	expect(res.status).toBe(200);
	return await res.json();
}

const reviewRequests = (path: string) =>
	simulator.requests().filter((r) => r.api === 'review' && r.path === path);

describe('Review Scraper in an activated workflow', () => {
	it('Profile → Add queues one job with the parameters as query parameters', async () => {
		const url = 'https://www.example.com/biz/e2e-add';
		const run = await runThroughWebhook(
			client,
			'e2e profile add',
			[
				reviewScraper({
					resource: 'profile',
					operation: 'add',
					url: '={{ $json.body.url }}',
					additionalFields: { blocks: 5, externalIdentifier: 'e2e-add', fromDate: '2024-01-31' },
				}),
			],
			{ url },
		);
		expect(run.execution.status).toBe('success');
		const [ack] = run.output('Review Scraper');
		expect(ack).toEqual(expect.objectContaining({ success: true, status: 200 }));
		expect(run.response).toEqual([ack]);

		const job = simulator.state.reviewJobs.get(ack.job_id as number);
		expect(job?.origin).toBe('add');
		const [request] = reviewRequests('/api/v2/profiles/add');
		expect(request.method).toBe('POST');
		expect(request.headers['spiderman-token']).toBe(simulator.config.token);
		expect(request.query).toEqual({
			url,
			blocks: '5',
			external_identifier: 'e2e-add',
			from_date: '2024-01-31',
		});
	});

	it('Respond Job → Get Many returns the jobs the simulator holds, all or up to the limit', async () => {
		simulator.configure({ respondJobCount: 7 });
		const held = await direct('/api/v2/responds/jobs');
		expect(held).toEqual(simulator.state.respondJobs);
		expect((held as unknown[]).length).toBe(7);

		const all = await runThroughWebhook(client, 'e2e respond jobs all', [
			reviewScraper({ resource: 'respondJob', operation: 'getAll', returnAll: true }),
		]);
		expect(all.output('Review Scraper')).toEqual(held);

		const limited = await runThroughWebhook(client, 'e2e respond jobs limit', [
			reviewScraper({ resource: 'respondJob', operation: 'getAll', returnAll: false, limit: 3 }),
		]);
		expect(limited.output('Review Scraper')).toEqual((held as unknown[]).slice(0, 3));
	});

	it('Respond Job → Get returns the one job the simulator holds under that id', async () => {
		const target = simulator.state.respondJobs[1];
		const run = await runThroughWebhook(
			client,
			'e2e respond job get',
			[
				reviewScraper({
					resource: 'respondJob',
					operation: 'get',
					jobId: '={{ $json.body.jobId }}',
				}),
			],
			{ jobId: target.job_id },
		);
		expect(run.output('Review Scraper')).toEqual([
			await direct(`/api/v2/responds/jobs/${target.job_id}`),
		]);
		expect(run.output('Review Scraper')[0].job_id).toBe(target.job_id);
	});

	it("Respond Job → Get on 1.3: From List lists the account's jobs; a pick, an ID and a workflow saved on 1.2 each read it", async () => {
		const target = simulator.state.respondJobs[1];
		const listed = await client.rest<{ results: Array<{ name: string; value: string }> }>(
			'POST',
			'/dynamic-node-parameters/resource-locator-results',
			{
				path: 'parameters.jobId',
				nodeTypeAndVersion: { name: REVIEW_SCRAPER, version: 1.3 },
				methodName: 'searchRespondJobs',
				filter: `#${target.job_id}`,
				currentNodeParameters: {
					resource: 'respondJob',
					operation: 'get',
					jobId: { __rl: true, mode: 'list', value: '' },
				},
				credentials: { reviewScraperApi: credentials.reviewScraperApi },
			},
		);
		expect(listed.results.map((option) => option.value)).toEqual([String(target.job_id)]);
		expect(listed.results[0].name).toContain(`#${target.job_id} ${target.status}`);

		const run = await runThroughWebhook(client, 'e2e respond job versions', [
			reviewScraper(
				{
					resource: 'respondJob',
					operation: 'get',
					jobId: { __rl: true, mode: 'list', value: listed.results[0].value },
				},
				{ name: 'Picked', typeVersion: 1.3 },
			),
			reviewScraper(
				{
					resource: 'respondJob',
					operation: 'get',
					jobId: { __rl: true, mode: 'id', value: '={{ $json.job_id }}' },
				},
				{ name: 'By ID', typeVersion: 1.3 },
			),
			reviewScraper(
				{ resource: 'respondJob', operation: 'get', jobId: '={{ $json.job_id }}' },
				{ name: 'Saved On 1.2', typeVersion: 1.2 },
			),
		]);
		const held = await direct(`/api/v2/responds/jobs/${target.job_id}`);
		for (const name of ['Picked', 'By ID', 'Saved On 1.2']) {
			expect([name, run.output(name)]).toEqual([name, [held]]);
		}
	});

	it('Profile → Add sends the day of Reviews Since, whether picked (1.3) or typed as text on 1.2', async () => {
		const run = await runThroughWebhook(client, 'e2e reviews since', [
			reviewScraper(
				{
					resource: 'profile',
					operation: 'add',
					url: 'https://www.example.com/biz/e2e-since-picked',
					additionalFields: { fromDate: '2026-01-31' },
				},
				{ name: 'Picked', typeVersion: 1.3 },
			),
			reviewScraper(
				{
					resource: 'profile',
					operation: 'add',
					url: 'https://www.example.com/biz/e2e-since-text',
					additionalFields: { fromDate: '2026-02-01' },
				},
				{ name: 'Typed', typeVersion: 1.2 },
			),
		]);
		expect(run.output('Typed')[0]).toMatchObject({ success: true });
		const sent = reviewRequests('/api/v2/profiles/add').map((r) => [
			r.query.url,
			r.query.from_date,
		]);
		expect(sent).toEqual([
			['https://www.example.com/biz/e2e-since-picked', '2026-01-31'],
			['https://www.example.com/biz/e2e-since-text', '2026-02-01'],
		]);
	});

	it('Listing Audit → Get returns the audit of a job, raw or with one shape per source', async () => {
		const jobId = simulator.state.respondJobs[0].job_id;
		const held = (await direct(`/api/v2/local_naps/local_nap?job_id=${jobId}`)) as {
			local_nap_sources: Array<Record<string, unknown>>;
		};
		expect(held.local_nap_sources.length).toBeGreaterThan(0);

		const raw = await runThroughWebhook(client, 'e2e listing audit raw', [
			reviewScraper({ resource: 'listingAudit', operation: 'get', jobId, simplify: false }),
		]);
		expect(raw.output('Review Scraper')).toEqual([held]);

		const simple = await runThroughWebhook(client, 'e2e listing audit simplified', [
			reviewScraper({ resource: 'listingAudit', operation: 'get', jobId, simplify: true }),
		]);
		const [audit] = simple.output('Review Scraper') as Array<{
			local_nap_sources: Array<Record<string, unknown>>;
		}>;
		expect(audit.local_nap_sources.map((s) => s.raw)).toEqual(held.local_nap_sources);
		for (const source of audit.local_nap_sources) {
			const original = source.raw as Record<string, unknown>;
			expect(source.name).toBe(original.company_name ?? original.business_name ?? null);
			expect(source.source_name).toBe(original.source_name);
		}
	});

	it('Profile → Add Many sends the items in bulk requests of Batch Size profiles', async () => {
		const profiles = Array.from({ length: 5 }, (_, i) => ({
			url: `https://www.example.com/biz/e2e-bulk-${i}`,
		}));
		const run = await runThroughWebhook(
			client,
			'e2e profile add many',
			[
				splitOutNode('body.profiles'),
				reviewScraper({
					resource: 'profile',
					operation: 'addMany',
					url: '={{ $json.url }}',
					options: { batchSize: 2 },
				}),
			],
			{ profiles },
		);
		expect(run.execution.status).toBe('success');
		const output = run.output('Review Scraper');
		expect(output.map((item) => item.url)).toEqual(profiles.map((p) => p.url));
		expect(output.every((item) => item.success === true)).toBe(true);
		expect(new Set(output.map((item) => item.job_id)).size).toBe(5);

		const bulk = reviewRequests('/api/v2/profiles/add_bulk');
		expect(bulk.map((r) => (r.body as unknown[]).length)).toEqual([2, 2, 1]);
		expect(bulk.flatMap((r) => r.body as Array<{ url: string }>).map((p) => p.url)).toEqual(
			profiles.map((p) => p.url),
		);
		expect(reviewRequests('/api/v2/profiles/add')).toHaveLength(0);
		expect(simulator.counts().bulkJobs).toBe(5);
	});

	it('with "continue on fail", an item the service refuses does not stop the others', async () => {
		const [first, second] = simulator.state.respondJobs;
		const run = await runThroughWebhook(
			client,
			'e2e continue on fail (service error)',
			[
				splitOutNode('body.ids'),
				reviewScraper(
					{ resource: 'respondJob', operation: 'get', jobId: '={{ $json.id }}' },
					{ onError: 'continueRegularOutput' },
				),
			],
			{ ids: [{ id: first.job_id }, { id: 999_999 }, { id: second.job_id }] },
		);
		expect(run.execution.status).toBe('success');
		const output = run.output('Review Scraper');
		expect(output).toHaveLength(3);
		expect(output[0]).toEqual(first);
		expect(output[2]).toEqual(second);
		expect(String(output[1].error)).toMatch(/not found|doesn't exist|404/i);
		// As in production, the refusal came in HTTP 200; the code the item shows is the body's.
		expect(reviewRequests('/api/v2/responds/jobs/999999').map((r) => r.responseStatus)).toEqual([
			200,
		]);
		expect(output[1].httpCode).toBe('404');
	});

	it('with "continue on fail", an invalid item is reported and the valid ones are still queued', async () => {
		const run = await runThroughWebhook(
			client,
			'e2e continue on fail (invalid item)',
			[
				splitOutNode('body.profiles'),
				reviewScraper(
					{ resource: 'profile', operation: 'add', url: '={{ $json.url }}' },
					{ onError: 'continueRegularOutput' },
				),
			],
			{
				profiles: [
					{ url: 'https://www.example.com/biz/ok-1' },
					{ url: 'not a url' },
					{ url: 'https://www.example.com/biz/ok-2' },
				],
			},
		);
		const output = run.output('Review Scraper');
		expect(output).toHaveLength(3);
		expect(output[0].success).toBe(true);
		expect(output[2].success).toBe(true);
		expect(String(output[1].error)).toMatch(/Profile URL/);
		// Items run concurrently: the order they reach the service in is not promised, the output's is.
		expect(
			reviewRequests('/api/v2/profiles/add')
				.map((r) => r.query.url)
				.sort(),
		).toEqual(['https://www.example.com/biz/ok-1', 'https://www.example.com/biz/ok-2']);
	});

	it('without "continue on fail", a refused item fails the execution with the service message', async () => {
		const run = await runThroughWebhook(client, 'e2e error stops', [
			reviewScraper({ resource: 'respondJob', operation: 'get', jobId: 999_999 }),
		]);
		expect(run.execution.status).toBe('error');
		expect(run.run('Review Scraper').error?.message).toMatch(/not found|doesn't exist|404/i);
	});
});

describe('Profile → Add Many input modes in real n8n (250 profiles)', () => {
	const COUNT = 250;
	const REFUSED = 17;
	// Passes the node's check (http scheme and a host) but not the service's URL parser, so the
	// service refuses this one profile inside an accepted bulk request.
	const profiles = () =>
		Array.from({ length: COUNT }, (_, i) => ({
			url: `https://www.example.com/biz/e2e-mode-${i}`,
			...(i === REFUSED ? { callback: 'https://bad host.example.com' } : {}),
			note: 'not a profile field',
		}));
	const pairedItems = (run: Awaited<ReturnType<typeof runThroughWebhook>>) =>
		(
			(run.run('Review Scraper').data?.main[0] ?? []) as Array<{
				pairedItem?: { item: number };
			}>
		).map((item) => item.pairedItem?.item);

	const expectOneItemPerProfile = (output: Array<Record<string, unknown>>) => {
		expect(output).toHaveLength(COUNT);
		output.forEach((item, i) => {
			if (i === REFUSED) {
				expect(item.success).toBe(false);
				expect(String(item.error)).toMatch(/http\(s\) URL/);
			} else {
				expect(item).toMatchObject({
					success: true,
					url: `https://www.example.com/biz/e2e-mode-${i}`,
				});
			}
		});
		const bulk = reviewRequests('/api/v2/profiles/add_bulk');
		expect(bulk.map((r) => (r.body as unknown[]).length)).toEqual([100, 100, 50]);
		// Unknown item fields are not sent; the node's Callback URL fills in where a profile has none.
		const sent = bulk.flatMap((r) => r.body as Array<Record<string, unknown>>);
		expect(sent.some((p) => 'note' in p)).toBe(false);
		expect(sent[0].callback).toBe('https://hooks.example.com/reviews');
		expect(simulator.counts().bulkJobs).toBe(COUNT - 1);
	};
	const modeNode = (parameters: Record<string, unknown>) =>
		reviewScraper(
			{
				resource: 'profile',
				operation: 'addMany',
				callback: 'https://hooks.example.com/reviews',
				...parameters,
			},
			{ typeVersion: 1.1, onError: 'continueRegularOutput' },
		);

	it('Map Automatically (the default): one item per profile, 3 requests', async () => {
		const run = await runThroughWebhook(
			client,
			'e2e add many: map automatically',
			[splitOutNode('body.profiles'), modeNode({})],
			{ profiles: profiles() },
		);
		expect(run.execution.status).toBe('success');
		expectOneItemPerProfile(run.output('Review Scraper'));
		expect(pairedItems(run)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
	});

	it('From a List Field: the webhook body itself, no Split Out, all paired with that item', async () => {
		const run = await runThroughWebhook(
			client,
			'e2e add many: from a list field',
			[modeNode({ inputMode: 'listField', listField: 'body.profiles' })],
			{ profiles: profiles() },
		);
		expect(run.execution.status).toBe('success');
		expectOneItemPerProfile(run.output('Review Scraper'));
		expect(pairedItems(run)).toEqual(new Array(COUNT).fill(0));
	});

	it('Define Below: expressions per item, as in version 1', async () => {
		const run = await runThroughWebhook(
			client,
			'e2e add many: define below',
			[
				splitOutNode('body.profiles'),
				modeNode({
					inputMode: 'defineBelow',
					url: '={{ $json.url }}',
					callback: '={{ $json.callback ?? "https://hooks.example.com/reviews" }}',
				}),
			],
			{ profiles: profiles() },
		);
		expect(run.execution.status).toBe('success');
		expectOneItemPerProfile(run.output('Review Scraper'));
		expect(pairedItems(run)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
	});

	it('refuses a list field that is not a list before any request, naming field and item', async () => {
		const run = await runThroughWebhook(client, 'e2e add many: not a list', [
			reviewScraper(
				{ resource: 'profile', operation: 'addMany', inputMode: 'listField', listField: 'body' },
				{ typeVersion: 1.1 },
			),
		]);
		expect(run.execution.status).toBe('error');
		expect(run.run('Review Scraper').error?.message).toBe(
			'List Field "body" must name a list of profiles in the input item, got an object (item 0)',
		);
		expect(reviewRequests('/api/v2/profiles/add_bulk')).toHaveLength(0);
	});
});

describe('Wait for Completion in real n8n', () => {
	it('puts the execution to wait and resumes it with the delivered reviews', async () => {
		const node = reviewScraper({
			resource: 'profile',
			operation: 'add',
			url: 'https://www.example.com/biz/e2e-wait',
			waitForCompletion: true,
			waitTimeLimit: 5,
			additionalFields: { blocks: 3, externalIdentifier: 'e2e-wait' },
		});
		const run = await runThroughWebhook(
			client,
			'e2e wait for completion',
			[node],
			{},
			{
				respond: 'onReceived',
				timeoutMs: 30_000,
			},
		);
		expect(run.execution.status).toBe('success');

		const [delivery] = simulator.deliveries();
		expect(delivery.url).toMatch(
			new RegExp(
				`^${state.webhookUrl}/webhook-waiting/${run.execution.id}/${node.id}\\?${resumeProof.parameter}=`,
			),
		);
		expect(delivery.state).toBe('delivered');
		const [submit] = reviewRequests('/api/v2/profiles/add');
		expect(submit.query.callback).toBe(delivery.url);

		const [result] = run.output('Review Scraper');
		const { wait_status: waitStatus, outcome, ...payload } = result;
		expect(waitStatus).toBe('completed');
		expect(outcome).toBe('completed');
		expect(payload).toEqual(asDelivered(delivery.payload));
		expect(ReviewJobCallback.parse(delivery.payload).reviews.length).toBeGreaterThan(0);
	});
});

describe('a simulator callback into an n8n webhook', () => {
	it('starts the receiving workflow, whose execution holds the delivered reviews', async () => {
		const path = `e2e-reviews-${randomUUID()}`;
		const receiver = chain([
			webhookNode(path, { name: 'Reviews Callback', respond: 'onReceived' }),
		]);
		const { id: receiverId } = await client.createWorkflow({
			name: 'e2e reviews receiver',
			...receiver,
		});
		await client.activate(receiverId);
		try {
			const callbackUrl = `${state.webhookUrl}/webhook/${path}`;
			const submit = await runThroughWebhook(client, 'e2e profile add with callback', [
				reviewScraper({
					resource: 'profile',
					operation: 'add',
					url: 'https://www.example.com/biz/e2e-callback',
					callback: callbackUrl,
					additionalFields: { blocks: 4, externalIdentifier: 'e2e-callback' },
				}),
			]);
			const [ack] = submit.output('Review Scraper');
			expect(ack.success).toBe(true);

			const [delivery] = await simulator.waitForDeliveries(1, 20_000);
			expect(delivery).toEqual(
				expect.objectContaining({
					url: callbackUrl,
					state: 'delivered',
					finalStatus: 200,
					ref: ack.job_id,
				}),
			);

			const [execution] = await client.waitForExecutions(receiverId, 1, 20_000);
			expect(execution.status).toBe('success');
			const [received] = nodeOutput(execution, 'Reviews Callback');
			const body = ReviewJobCallback.parse(received.body);
			expect(body).toEqual(delivery.payload);
			expect(body.job_id).toBe(ack.job_id);
			expect(body.external_identifier).toBe('e2e-callback');
			expect(body.reviews.length).toBeGreaterThan(0);
			expect(body.reviews.length).toBeLessThanOrEqual(4);
		} finally {
			await client.deactivate(receiverId);
		}
	});
});
