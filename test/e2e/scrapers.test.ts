import { randomUUID } from 'node:crypto';

import { EcommerceEnvelope, PhotoEnvelope } from '../../simulator/schemas';
import { deliveryMarks } from './harness/delivered';
import type { WorkflowNode } from './harness/client';
import { directSubmitter } from './harness/submit';
import {
	activateChain,
	nodeOutput,
	packageNode,
	postToWebhook,
	productionUrl,
	runThroughWebhook,
	splitOutNode,
	webhookBase,
	webhookNode,
} from './harness/workflows';
import { useE2e } from './harness/suite';

const { client, state, simulator, credentials, activated } = useE2e({
	credentials: 'scrapers e2e',
});

const socialScraper = (parameters: Record<string, unknown>): WorkflowNode =>
	packageNode('socialScraper', 'Social Scraper', parameters, {
		scrapingApi: credentials.scrapingApi,
	});

const ecommerceSearch = (parameters: Record<string, unknown>): WorkflowNode =>
	packageNode('ecommerceSearch', 'E-commerce Search', parameters, {
		scrapingApi: credentials.scrapingApi,
	});

describe('Social Scraper in real n8n', () => {
	it('a photo search calls back an n8n Webhook workflow, whose execution holds the posts', async () => {
		simulator.configure({ photoPostCount: 15 });
		const path = `e2e-photos-${randomUUID()}`;
		const receiverId = await activateChain(client, 'e2e photo posts receiver', [
			webhookNode(path, { name: 'Posts Callback', respond: 'onReceived' }),
			splitOutNode('body.results', 'One Item per Post'),
		]);
		activated.add(receiverId);
		const callbackUrl = `${webhookBase(state)}/webhook/${path}`;

		const submit = await runThroughWebhook(client, 'e2e photo search with callback', [
			socialScraper({
				resource: 'photoPost',
				operation: 'search',
				keyword: '#e2e-sunset',
				callbackUrl,
				additionalFields: { externalIdentifier: 'e2e-photos' },
			}),
		]);
		expect(submit.execution.status).toBe('success');
		const [ack] = submit.output('Social Scraper');
		expect(ack).toEqual(
			expect.objectContaining({ status: 'created', request_id: expect.any(String) }),
		);
		const [sent] = simulator.requests().filter((r) => r.api === 'photo' && r.method === 'POST');
		expect(sent.body).toEqual({
			keyword: '#e2e-sunset',
			callback_url: callbackUrl,
			external_identifier: 'e2e-photos',
		});

		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		expect(delivery).toEqual(
			expect.objectContaining({ url: callbackUrl, state: 'delivered', ref: ack.request_id }),
		);
		const [received] = await client.waitForExecutions(receiverId, 1, 20_000);
		expect(received.status).toBe('success');
		const [request] = nodeOutput(received, 'Posts Callback');
		const envelope = PhotoEnvelope.parse(request.body);
		expect(envelope).toEqual(delivery.payload);
		expect(envelope.request_id).toBe(ack.request_id);
		expect(envelope.request_metadata).toEqual(
			expect.objectContaining({ keyword: '#e2e-sunset', external_identifier: 'e2e-photos' }),
		);
		expect(nodeOutput(received, 'One Item per Post')).toEqual(envelope.results);
		expect(envelope.results).toHaveLength(15);
	});

	it('Photo Post → Get Results with Return All reads all 21 pages: 205 posts, no gap, no duplicate', async () => {
		simulator.configure({ photoPostCount: 205 });
		const { request_id: requestId } = await directSubmitter(simulator).photoSearch(
			`${simulator.urls.controlUrl}/no-callback-needed`,
		);
		await simulator.waitForDeliveries(1, 20_000);
		const held = simulator.state.photoRequests.get(String(requestId))!;
		expect(held.status).toBe('completed');
		simulator.clearRequests();

		const run = await runThroughWebhook(client, 'e2e photo results return all', [
			socialScraper({
				resource: 'photoPost',
				operation: 'getResults',
				requestId,
				returnAll: true,
				options: { perPage: 10 },
			}),
		]);
		expect(run.execution.status).toBe('success');
		const posts = run.output('Social Scraper');
		expect(posts).toHaveLength(205);
		expect(posts).toEqual(held.results.map((post) => ({ request_id: requestId, ...post })));
		expect(new Set(posts.map((post) => post.unique_id)).size).toBe(205);

		const calls = simulator.requests().filter((r) => r.api === 'photo');
		expect(calls.filter((r) => r.path.startsWith('/v1/requests/'))).toHaveLength(1);
		// Answered pages only: on a busy machine a page can meet the service's rate limit and be
		// asked again after the 429.
		const pages = calls
			.filter((r) => r.path === `/v1/search/${requestId}` && r.responseStatus === 200)
			.map((r) => {
				expect(r.query.per_page).toBe('10');
				return Number(r.query.page);
			});
		expect(pages.sort((a, b) => a - b)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
	});
});

describe('E-commerce Search in an activated workflow', () => {
	const searchParameters = (callbackUrl: string) => ({
		resource: 'product',
		operation: 'search',
		keyword: 'wireless headphones',
		sources: ['amazon', 'ebay'],
		callbackUrl,
		filters: { rating: { condition: [{ operator: 'gte', value: 4 }] } },
		additionalFields: { perPage: 20, limit: 60 },
		includeSummary: true,
	});

	it('returns one item per product of the page and a summary; the callback carries every product found', async () => {
		const trigger = packageNode('scrapingCallbackTrigger', 'Product Callbacks', {});
		const receiverId = await activateChain(client, 'e2e product callbacks', [trigger]);
		activated.add(receiverId);
		const callbackUrl = productionUrl(webhookBase(state), trigger, 'callback');
		// Registered once it refuses an empty body (the service does not retry a 404).
		expect((await postToWebhook(callbackUrl, {})).status).toBe(400);

		const run = await runThroughWebhook(client, 'e2e product search', [
			ecommerceSearch(searchParameters(callbackUrl)),
		]);
		expect(run.execution.status).toBe('success');
		const [sent] = simulator.requests().filter((r) => r.api === 'ecommerce');
		expect(sent.body).toEqual({
			callback: callbackUrl,
			keyword: 'wireless headphones',
			source: ['amazon', 'ebay'],
			filters: { rating: { gte: 4 } },
			per_page: 20,
			limit: 60,
		});

		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		const found = EcommerceEnvelope.parse(delivery.payload);
		expect(found.results.length).toBeGreaterThan(20);
		expect(found.results.every((p) => p.rating >= 4 && ['amazon', 'ebay'].includes(p.source))).toBe(
			true,
		);

		const output = run.output('E-commerce Search');
		const summary = output.pop();
		expect(output).toEqual(
			found.results.slice(0, 20).map((product) => ({ request_id: found.request_id, ...product })),
		);
		expect(summary).toEqual(
			expect.objectContaining({
				request_id: found.request_id,
				credits_used: found.results.length,
				pagination: {
					current_page: 1,
					page_size: 20,
					total_pages: Math.ceil(found.results.length / 20),
				},
				summary: found.summary,
			}),
		);
		expect(summary).not.toHaveProperty('results');

		const [received] = await client.waitForExecutions(receiverId, 1, 20_000);
		expect(nodeOutput(received, 'Product Callbacks')).toEqual([
			{
				kind: 'productSearch',
				id: found.request_id,
				outcome: 'completed',
				payload: delivery.payload,
				...deliveryMarks('productSearch', found.request_id, delivery.payload),
			},
		]);
	});

	it('returns the acknowledgement as it is when the service answers with one only', async () => {
		simulator.configure({ ecommerceResponse: 'ack' });
		const run = await runThroughWebhook(client, 'e2e product search acknowledged', [
			ecommerceSearch(searchParameters(`${simulator.urls.controlUrl}/no-callback-needed`)),
		]);
		expect(run.output('E-commerce Search')).toEqual([
			{ request_id: expect.any(String), status: 'created', message: 'Search created' },
		]);
	});
});
