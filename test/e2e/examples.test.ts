import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	EcommerceProductBody,
	PhotoPostBody,
	ReviewJobReviewBody,
} from '../../simulator/schemas';
import type { WorkflowDefinition, WorkflowNode } from './harness/client';
import { dataTableRows, dropDataTable } from './harness/dataTables';
import { isWebhookTriggered, loadExamples, prepareExample } from './harness/examples';
import { nodeOutput, postToWebhook, productionUrl, webhookNode } from './harness/workflows';
import { useE2e } from './harness/suite';

const { client, state, simulator, credentials } = useE2e({
	credentials: 'examples e2e',
	resetEachTest: false,
});

const examples = loadExamples();
const byFile = (file: string) => {
	const example = examples.find((e) => e.file === file);
	if (!example) throw new Error(`examples/${file} is missing`);
	return prepareExample(example.workflow, { credentials, n8nUrl: state.webhookUrl });
};

/** The triggers a test cannot fire at will: a webhook takes their place. */
const REPLACED_TRIGGERS = new Set([
	'n8n-nodes-base.manualTrigger',
	'n8n-nodes-base.scheduleTrigger',
]);

/**
 * Runs an example started by hand or on a schedule, through a webhook put in place of its Manual
 * Trigger or Schedule Trigger.
 */
async function runManualExample(
	workflow: WorkflowDefinition,
	path: string,
	respond: 'lastNode' | 'onReceived' = 'lastNode',
) {
	const nodes = workflow.nodes.map((node) =>
		REPLACED_TRIGGERS.has(node.type)
			? { ...webhookNode(path, { respond }), name: node.name, position: node.position }
			: node,
	);
	expect(nodes.some((node) => node.type === 'n8n-nodes-base.webhook')).toBe(true);
	const { id } = await client.createWorkflow({ ...workflow, nodes });
	await client.activate(id);
	try {
		const res = await client.callWebhook(path, {});
		expect(res.status).toBe(200);
		const [execution] = await client.waitForExecutions(id, 1, 60_000);
		return execution;
	} finally {
		await client.deactivate(id);
	}
}

/** The example with some of one node's parameters changed. */
function withParameters(
	workflow: WorkflowDefinition,
	nodeName: string,
	patch: Record<string, unknown>,
): WorkflowDefinition {
	expect(workflow.nodes.map((node) => node.name)).toContain(nodeName);
	const nodes = workflow.nodes.map((node) =>
		node.name === nodeName ? { ...node, parameters: { ...node.parameters, ...patch } } : node,
	);
	return { ...workflow, nodes };
}

/** What the simulator delivered of one kind, in the order it was sent. */
function deliveredPayloads<T>(kind: string): T[] {
	const deliveries = simulator.deliveries().filter((delivery) => delivery.kind === kind);
	expect(deliveries.map((delivery) => delivery.state)).toEqual(
		Array(deliveries.length).fill('delivered'),
	);
	return deliveries.map((delivery) => delivery.payload as T);
}

const ids = (items: Array<Record<string, unknown>>, field: string) =>
	items.map((item) => item[field]).sort();

describe('examples/', () => {
	it('has examples, each using only node types this n8n has loaded', async () => {
		expect(examples.length).toBeGreaterThanOrEqual(3);
		const loaded = new Set((await client.nodeTypes()).map((type) => type.name));
		for (const { file, workflow } of examples) {
			const missing = workflow.nodes.map((n) => n.type).filter((type) => !loaded.has(type));
			expect({ file, missing }).toEqual({ file, missing: [] });
		}
	});

	it('Profile Add with a callback: the receiver example gets one item per collected review', async () => {
		const receiver = byFile('review-callback-receiver.json');
		expect(isWebhookTriggered(receiver)).toBe(true);
		const { id: receiverId } = await client.createWorkflow(receiver);
		await client.activate(receiverId);
		try {
			const queue = byFile('queue-review-profile.json');
			const submitted = await runManualExample(queue, 'example-queue-review-profile');
			expect(submitted.status).toBe('success');
			const [ack] = nodeOutput(submitted, 'Queue Review Profile');
			expect(ack.success).toBe(true);

			const [delivery] = await simulator.waitForDeliveries(1, 20_000);
			expect(delivery.state).toBe('delivered');
			const payload = delivery.payload as { job_id: number; reviews: unknown[] };
			expect(payload.job_id).toBe(ack.job_id);

			const [received] = await client.waitForExecutions(receiverId, 1, 20_000);
			const reviews = nodeOutput(received, 'One Item per Review');
			expect(reviews.length).toBe(payload.reviews.length);
			expect(reviews.length).toBeGreaterThan(0);
			expect(reviews).toEqual(payload.reviews);
		} finally {
			await client.deactivate(receiverId);
		}
	});

	it('Many profiles in a loop: each waits for its reviews, and each result keeps its own customer', async () => {
		const example = byFile('many-profiles-loop-wait.json');
		simulator.reset();
		const execution = await runManualExample(example, 'example-many-profiles', 'onReceived');
		expect(execution.status).toBe('success');
		const profiles = nodeOutput(execution, 'One Item per Profile');
		expect(profiles).toHaveLength(3);
		const results = (execution.data?.resultData.runData['Reviews with Customer'] ?? []).flatMap(
			(run) => (run.data?.main[0] ?? []).map((item) => item.json),
		);
		expect(results).toHaveLength(3);
		const deliveries = simulator.deliveries();
		expect(deliveries.map((delivery) => delivery.state)).toEqual(Array(3).fill('delivered'));
		for (const result of results) {
			const delivered = deliveries
				.map((delivery) => delivery.payload as { source_url: string; reviews: unknown[] })
				.find((payload) => payload.source_url === result.profile_url);
			const profile = profiles.find((p) => p.url === result.profile_url);
			expect(result).toMatchObject({
				customer: profile?.customer,
				wait_status: 'completed',
				review_count: delivered?.reviews.length,
			});
			expect(result.review_count).toBeGreaterThan(0);
		}
		expect(nodeOutput(execution, 'Every Profile Collected')).toHaveLength(3);
	});

	it('Respond jobs and their listing audits: one audit per respond job', async () => {
		const execution = await runManualExample(
			byFile('respond-jobs-and-listing-audit.json'),
			'example-respond-jobs',
		);
		expect(execution.status).toBe('success');
		const jobs = nodeOutput(execution, 'Get Respond Jobs');
		expect(jobs).toEqual(simulator.state.respondJobs.slice(0, 3));
		const audits = nodeOutput(execution, 'Get Listing Audit');
		expect(audits).toHaveLength(3);
		for (const audit of audits) {
			expect(Array.isArray(audit.local_nap_sources)).toBe(true);
			expect((audit.local_nap_sources as unknown[]).length).toBeGreaterThan(0);
		}
	});

	it('Each delivery handled once: a repeat that gets past the trigger stops at Remove Duplicates', async () => {
		const example = byFile('callback-trigger-once-per-delivery.json');
		expect(isWebhookTriggered(example)).toBe(true);
		// Screening off stands for a second webhook process or a restart, where the trigger's own
		// memory does not see the first delivery (test/e2e-queue/repeats.test.ts shows the real thing).
		const nodes = example.nodes.map((node) =>
			node.name === 'Scraping Callback Trigger'
				? { ...node, parameters: { ...node.parameters, options: { dedupe: false } } }
				: node,
		);
		const trigger = nodes.find((node) => node.name === 'Scraping Callback Trigger')!;
		const { id } = await client.createWorkflow({ ...example, nodes });
		await client.activate(id);
		try {
			const url = productionUrl(state.webhookUrl, trigger, 'callback');
			const failed = { success: false, status: 500, job_id: 515151, message: 'Crawl failed' };
			const job = {
				success: true,
				status: 200,
				job_id: 525252,
				crawl_status: 'complete',
				reviews: [{ id: 'r1', rating_value: 4 }],
			};
			// One at a time, as the service's repeats come hours apart: two executions of a workflow's
			// first deliveries at once can fail one in Remove Duplicates (results-delivery.md).
			let executions: Awaited<ReturnType<typeof client.waitForExecutions>> = [];
			for (const [n, body] of [job, job, failed].entries()) {
				expect((await postToWebhook(url, body)).status).toBe(200);
				executions = await client.waitForExecutions(id, n + 1, 20_000);
			}
			expect(executions.map((execution) => execution.status)).toEqual([
				'success',
				'success',
				'success',
			]);
			const handled = (name: string) =>
				executions.flatMap((execution) =>
					execution.data?.resultData.runData[name] ? nodeOutput(execution, name) : [],
				);
			expect(handled('Handle Results').map((item) => item.id)).toEqual(['525252']);
			expect(handled('Handle Failure').map((item) => item.id)).toEqual(['515151']);
		} finally {
			await client.deactivate(id);
		}
	});

	describe('templates that save into an n8n Data Table (created by their first run)', () => {
		it('New reviews of a place: each review saved once in place_reviews, ratings 1-2 flagged and sent on', async () => {
			const example = byFile('place-reviews-to-data-table.json');
			const collect = 'Collect Latest Reviews';
			const node = example.nodes.find((n) => n.name === collect)!;
			const blocks = (node.parameters.additionalFields as { blocks: number }).blocks;
			expect(blocks).toBeGreaterThan(5);
			simulator.reset();
			await dropDataTable(client, 'place_reviews');

			// A first run looks at the 5 latest reviews, the next one at the template's number.
			const first = await runManualExample(
				withParameters(example, collect, { additionalFields: { blocks: 5 } }),
				'example-place-reviews-1',
				'onReceived',
			);
			expect(first.status).toBe('success');
			expect(await dataTableRows(client, 'place_reviews')).toHaveLength(5);
			const second = await runManualExample(example, 'example-place-reviews-2', 'onReceived');
			expect(second.status).toBe('success');

			type Job = { job_id: number; source_url: string; reviews: ReviewJobReviewBody[] };
			const [early, late] = deliveredPayloads<Job>('reviewJob');
			expect(early.reviews).toHaveLength(5);
			expect(late.reviews).toHaveLength(blocks);
			const lateOnly = late.reviews.filter((r) => !early.reviews.some((e) => e.id === r.id));
			expect(lateOnly).toHaveLength(blocks - 5);
			expect(ids(nodeOutput(second, 'Only New Reviews'), 'id')).toEqual(ids(lateOnly, 'id'));

			const rows = await dataTableRows(client, 'place_reviews');
			expect(rows).toHaveLength(blocks);
			const expected = [
				...early.reviews.map((review) => ({ review, job: early })),
				...lateOnly.map((review) => ({ review, job: late })),
			];
			expect(ids(rows, 'review_id')).toEqual(expected.map(({ review }) => review.id).sort());
			for (const { review, job } of expected) {
				expect(rows.find((row) => row.review_id === review.id)).toMatchObject({
					place: job.source_url,
					author: review.name,
					rating: review.rating_value,
					low_rating: review.rating_value <= 2,
					review_date: review.date,
					review_text: review.review_text,
					review_url: review.url,
					job_id: job.job_id,
				});
			}

			const low = late.reviews.filter((review) => review.rating_value <= 2);
			expect(low.length).toBeGreaterThan(0);
			expect(low.length).toBeLessThan(blocks);
			const sentOn = [first, second].flatMap((execution) =>
				execution.data?.resultData.runData['Act on Low Ratings']
					? nodeOutput(execution, 'Act on Low Ratings')
					: [],
			);
			expect(ids(sentOn, 'review_id')).toEqual(ids(low, 'id'));
			expect(sentOn.every((row) => row.low_rating === true)).toBe(true);
		});

		it('Many profiles with an error branch: queued and failed rows in profile_submissions, a refusal retried, nothing queued twice', async () => {
			const example = byFile('profile-submissions-to-data-table.json');
			const queue = example.nodes.find(
				(n) => n.name === 'Queue Review Profile',
			)! as WorkflowNode & {
				retryOnFail?: boolean;
			};
			expect(queue.onError).toBe('continueErrorOutput');
			expect(queue.retryOnFail).toBe(true);
			const profiles = JSON.parse(
				String(example.nodes.find((n) => n.name === 'Profiles to Queue')!.parameters.jsonOutput),
			).profiles as Array<{ name: string; url: string }>;
			const [refusedFirst, other, blank] = profiles;
			expect(blank.url).toBe('');
			simulator.reset();
			await dropDataTable(client, 'profile_submissions');
			// The service refuses the first profile once: n8n retries the node (its first item failed).
			simulator.injectFault({ api: 'review', kind: 'refused', times: 1, match: 'pizza-palace' });

			const execution = await runManualExample(
				example,
				'example-profile-submissions',
				'onReceived',
			);
			expect(execution.status).toBe('success');
			expect(simulator.submissions()).toEqual({ [refusedFirst.url]: 2, [other.url]: 1 });
			expect(simulator.counts().jobs).toBe(2);

			const rows = await dataTableRows(client, 'profile_submissions');
			const jobs = [...simulator.state.work.reviewJob.values()];
			expect(rows.map(({ name, url, status }) => ({ name, url, status }))).toEqual(
				expect.arrayContaining([
					{ ...refusedFirst, status: 'queued' },
					{ ...other, status: 'queued' },
					{ ...blank, status: 'failed' },
				]),
			);
			expect(rows).toHaveLength(3);
			for (const row of rows.filter((r) => r.status === 'queued')) {
				expect(jobs.find((job) => job.params.url === row.url)?.job_id).toBe(row.job_id);
			}
			const failed = rows.find((row) => row.status === 'failed')!;
			expect(String(failed.error)).toMatch(/URL|query|place/i);
			expect(String(failed.detail).length).toBeGreaterThan(0);
		});

		it('Weekly prices of a product search: one row per product found in product_prices', async () => {
			const example = byFile('weekly-prices-to-data-table.json');
			const search = example.nodes.find((n) => n.name === 'Search Products')!;
			expect(example.nodes.map((n) => n.type)).toContain('n8n-nodes-base.scheduleTrigger');
			// E-Commerce Search 1.2: Limit at the top (Return All off), sent as the service's cap.
			expect(search.typeVersion).toBe(1.2);
			const limit = search.parameters.limit as number;
			expect(limit).toBeGreaterThan(0);
			simulator.reset();
			await dropDataTable(client, 'product_prices');

			const execution = await runManualExample(example, 'example-weekly-prices', 'onReceived');
			expect(execution.status).toBe('success');
			const searches = [...simulator.state.work.productSearch.values()];
			expect(searches).toHaveLength(1);
			const products = searches[0].callbackPayload.results as EcommerceProductBody[];
			expect(products).toHaveLength(limit);

			const rows = await dataTableRows(client, 'product_prices');
			expect(rows).toHaveLength(products.length);
			const today = Date.now();
			for (const product of products) {
				const row = rows.find((r) => r.product_id === product.unique_id);
				expect(row).toMatchObject({
					keyword: search.parameters.keyword,
					source: product.source,
					name: product.name,
					price: product.reduced_price ?? product.full_price,
					full_price: product.full_price,
					currency: product.currency,
					rating: product.rating,
					ranking: product.ranking,
					url: product.url,
				});
				// The instance's time zone may be a day off UTC.
				const checked = Date.parse(`${String(row?.checked_on)}T12:00:00Z`);
				expect(Math.abs(checked - today)).toBeLessThan(2 * 86_400_000);
			}
			expect(new Set(rows.map((row) => row.source))).toEqual(
				new Set(search.parameters.sources as string[]),
			);
		});

		it("A hashtag's new posts: each post saved once in hashtag_posts", async () => {
			const example = byFile('hashtag-new-posts-to-data-table.json');
			const search = example.nodes.find((n) => n.name === 'Search Hashtag Posts')!;
			simulator.reset();
			await dropDataTable(client, 'hashtag_posts');
			try {
				// The search finds 6 posts, then 10 (the 6 and 4 newer ones).
				simulator.configure({ photoPostCount: 6 });
				const first = await runManualExample(example, 'example-hashtag-posts-1', 'onReceived');
				expect(first.status).toBe('success');
				simulator.configure({ photoPostCount: 10 });
				const second = await runManualExample(example, 'example-hashtag-posts-2', 'onReceived');
				expect(second.status).toBe('success');

				const [early, late] = deliveredPayloads<{ results: PhotoPostBody[] }>('photoSearch');
				expect(early.results).toHaveLength(6);
				expect(late.results).toHaveLength(10);
				const lateOnly = late.results.filter(
					(post) => !early.results.some((e) => e.post_id === post.post_id),
				);
				expect(lateOnly).toHaveLength(4);
				expect(ids(nodeOutput(second, 'Only New Posts'), 'post_id')).toEqual(
					ids(lateOnly, 'post_id'),
				);

				// A post keeps the likes and comments it had when first seen (the second search sees
				// other counts for the same posts).
				const rows = await dataTableRows(client, 'hashtag_posts');
				const expected = [...early.results, ...lateOnly];
				expect(ids(rows, 'post_id')).toEqual(ids(late.results, 'post_id'));
				for (const post of expected) {
					expect(rows.find((row) => row.post_id === post.post_id)).toMatchObject({
						hashtag: search.parameters.keyword,
						url: post.url,
						author: post.author.username,
						description: post.description,
						likes: post.likes_count,
						comments: post.comments_count,
						upload_date: post.upload_date,
						media_type: post.media[0].type,
					});
				}
			} finally {
				simulator.reset();
			}
		});
	});
});

describe('test/engine/ workflow files', () => {
	it('n8n saves each as a workflow and gives back its nodes, connections and pinned data', async () => {
		const dir = join(__dirname, '..', 'engine');
		const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.workflow.json'))
			.sort();
		expect(files.length).toBeGreaterThan(50);
		const loaded = new Set((await client.nodeTypes()).map((type) => type.name));
		for (const file of files) {
			const { nodes, connections, pinData } = JSON.parse(
				readFileSync(join(dir, file), 'utf8'),
			) as WorkflowDefinition;
			const missing = nodes.map((node) => node.type).filter((type) => !loaded.has(type));
			expect({ file, missing }).toEqual({ file, missing: [] });
			// n8n's public API refuses keys it does not know: the service's side stays behind.
			const { id } = await client.createWorkflow({ name: file, nodes, connections, pinData });
			try {
				const saved = await client.getWorkflow(id);
				expect({ file, ...saved }).toMatchObject({
					file,
					nodes: nodes.map((node) => expect.objectContaining(node)),
					connections,
					pinData: pinData ?? {},
				});
			} finally {
				await client.deleteWorkflow(id);
			}
		}
	});
});
