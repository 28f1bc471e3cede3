import { randomBytes } from 'node:crypto';

import type { WorkflowNode } from './harness/client';
import { resumeProof } from './harness/compat';
import {
	activateChain,
	expectExecutionCountStays,
	nodeOutput,
	packageNode,
	postToWebhook,
	productionUrl,
	waitForExecutionStatus,
	webhookBase,
	webhookNode,
} from './harness/workflows';
import { useE2e } from './harness/suite';

/**
 * Where a result, a job ID or a secret could be lost without a word: a submission refused in
 * HTTP 200, work that found nothing, a failed scrape whose results are null, a delivery whose kind
 * cannot be told.
 */
const { client, state, simulator, credentials, activated } = useE2e({ credentials: 'edges e2e' });

const socialScraper = (parameters: Record<string, unknown>, extra: Partial<WorkflowNode> = {}) => ({
	...packageNode('socialScraper', 'Social Scraper', parameters, {
		scrapingApi: credentials.scrapingApi,
	}),
	...extra,
});

/** Activates Webhook → `node` and starts it once; returns the workflow id. */
async function startBehindWebhook(name: string, node: WorkflowNode): Promise<string> {
	const path = `e2e-edges-${randomBytes(6).toString('hex')}`;
	const id = await activateChain(client, name, [
		webhookNode(path, { respond: 'onReceived' }),
		node,
	]);
	activated.add(id);
	expect((await client.callWebhook(path, {})).status).toBe(200);
	return id;
}

async function activeTrigger(name: string, parameters: Record<string, unknown>) {
	const node = packageNode('scrapingCallbackTrigger', 'Trigger', parameters);
	const id = await activateChain(client, name, [node]);
	activated.add(id);
	const url = productionUrl(webhookBase(state), node, 'callback');
	expect((await postToWebhook(url, {})).status).toBe(400);
	return { id, url };
}

describe('refused submissions and empty results in real n8n', () => {
	it('a photo search refused in HTTP 200 fails with the service message; with Wait for Completion nothing waits', async () => {
		simulator.injectFault({ api: 'photo', method: 'POST', kind: 'failed-200' });
		const id = await startBehindWebhook(
			'edges: refused search with wait',
			socialScraper({
				resource: 'photoPost',
				operation: 'search',
				keyword: '#refused',
				waitForCompletion: true,
			}),
		);
		const [execution] = await client.waitForExecutions(id, 1, 20_000);
		expect(execution.status).toBe('error');
		expect(execution.data?.resultData.error?.message).toBe('Request refused: not enough credits');
		await expectExecutionCountStays(client, id, 1, 1_000);
		expect((await client.listExecutions({ workflowId: id, status: 'waiting' })).length).toBe(0);
	});

	it('with Continue On Fail, the refused item carries the error and the service message', async () => {
		simulator.injectFault({ api: 'social', method: 'POST', kind: 'failed-200' });
		const id = await startBehindWebhook(
			'edges: refused scrape, continue',
			socialScraper(
				{
					resource: 'socialPost',
					operation: 'scrape',
					url: 'https://social.example.com/p/refused',
					callbackUrl: 'https://n8n.example.com/webhook/x',
				},
				{ onError: 'continueRegularOutput' } as Partial<WorkflowNode>,
			),
		);
		const [execution] = await client.waitForExecutions(id, 1, 20_000);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Social Scraper')).toEqual([
			expect.objectContaining({ error: 'Request refused: not enough credits' }),
		]);
		expect(simulator.deliveries()).toEqual([]);
	});

	it('a search that completes with no posts resumes Wait for Completion with one item, wait_status completed', async () => {
		simulator.configure({ completionDelayMs: 1_500, photoPostCount: 0 });
		const id = await startBehindWebhook(
			'edges: empty search with wait',
			socialScraper({
				resource: 'photoPost',
				operation: 'search',
				keyword: '#empty',
				waitForCompletion: true,
				waitTimeLimit: 5,
			}),
		);
		await waitForExecutionStatus(client, id, 'waiting', 10_000);
		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		expect(delivery.state).toBe('delivered');
		const [resumed] = await client.waitForExecutions(id, 1, 20_000);
		expect(resumed.status).toBe('success');
		const items = nodeOutput(resumed, 'Social Scraper');
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			request_id: (delivery.payload as { request_id: string }).request_id,
			wait_status: 'completed',
			outcome: 'completed',
			result_count: 0,
		});
		// The service echoes the resume URL; its proof (n8n 2.x's signature, the node's own token on
		// 1.x) would let anyone resume executions.
		const proof = new URL(delivery.url).searchParams.get(resumeProof.parameter) as string;
		expect(proof).toMatch(/^[\w-]{16,}$/);
		expect(JSON.stringify(items)).not.toContain(proof);
		expect(JSON.stringify(items)).toContain(`${resumeProof.parameter}=***`);
	});
});

describe('deliveries that must not vanish at the Scraping Callback Trigger', () => {
	it('a completed review job with no new reviews gives one item with Split Results', async () => {
		const { id, url } = await activeTrigger('edges: empty job split', {
			options: { splitResults: true },
		});
		const job = { success: true, status: 200, job_id: 8801, crawl_status: 'complete', reviews: [] };
		expect((await postToWebhook(url, job)).status).toBe(200);
		const [execution] = await client.waitForExecutions(id, 1, 20_000);
		const items = nodeOutput(execution, 'Trigger');
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			kind: 'reviewJob',
			id: '8801',
			outcome: 'completed',
			recordCount: 0,
			deliveryKey: expect.stringMatching(/^reviewJob:8801:[0-9a-f]{32}$/),
		});
		expect(items[0].record).toBeUndefined();
	});

	it('a failed social scrape with results: null reaches a Social-only kind filter', async () => {
		const { id, url } = await activeTrigger('edges: failed social scrape', {
			kinds: ['socialScrape'],
		});
		const failed = {
			request_id: 'social-failed-1',
			status: 'failed',
			credits_used: 0,
			request_metadata: {
				url: 'https://social.example.com/p/1',
				callback_url: url,
				external_identifier: null,
				get_comments: false,
			},
			results: null,
			summary: null,
			pagination: null,
		};
		const answer = await postToWebhook(url, failed);
		expect(answer).toEqual({ status: 200, body: { received: true } });
		const [execution] = await client.waitForExecutions(id, 1, 20_000);
		expect(nodeOutput(execution, 'Trigger')).toEqual([
			expect.objectContaining({ kind: 'socialScrape', id: 'social-failed-1', outcome: 'failed' }),
		]);
	});

	it('a delivery whose kind cannot be told starts the workflow as unknown, whatever the filter', async () => {
		const { id, url } = await activeTrigger('edges: unknown kind', { kinds: ['reviewJob'] });
		expect((await postToWebhook(url, { request_id: 'odd-1', state: 'done' })).status).toBe(200);
		const [execution] = await client.waitForExecutions(id, 1, 20_000);
		expect(nodeOutput(execution, 'Trigger')).toEqual([
			expect.objectContaining({ kind: 'unknown', id: 'odd-1' }),
		]);
	});
});
