import { randomBytes, randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { ScrapingDelivery } from '../../nodes/ScrapingDelivery/ScrapingDelivery.node';
import {
	credentialsFor,
	credentialTypes,
	nodeTypes,
	startReceiver,
	useSimulator,
} from './fixtures';
import { runWorkflow } from './harness';

/**
 * Scraping Delivery on n8n's engine, fed what n8n's Webhook node outputs for a real callback of
 * the simulator. The Webhook node itself is not run here: it is n8n-nodes-base's, which the
 * package does not depend on (the e2e layer runs the pair in a real n8n,
 * test/e2e/burst.test.ts). Its output is built as that node builds it: headers, params,
 * query, body, webhookUrl, executionMode.
 */
const context = useSimulator();
const DELIVERY = 'n8n-nodes-review-scraping.scrapingDelivery';
const SECRET = randomBytes(16).toString('hex');

/** A review job's real callback, as the Webhook node's output item. */
async function deliveredReviewJob(): Promise<{ item: IDataObject; jobId: unknown }> {
	const receiver = await startReceiver();
	try {
		const ack = await runWorkflow({
			nodes: [
				{
					name: 'Add',
					type: 'n8n-nodes-review-scraping.reviewScraper',
					parameters: {
						resource: 'profile',
						operation: 'add',
						url: 'https://reviews.example.com/biz/delivery',
						callback: `${receiver.url}/webhook/deliveries?secret=${SECRET}`,
					},
				},
			],
			nodeTypes,
			credentialTypes,
			credentials: credentialsFor(context.sim),
		});
		expect(ack.status).toBe('success');
		await context.sim.waitForDeliveries(1, 5000);
		const [{ url, body }] = receiver.received;
		const address = new URL(url, receiver.url);
		return {
			jobId: ack.json('Add')[0].job_id,
			item: {
				headers: { 'content-type': 'application/json', host: address.host },
				params: {},
				query: Object.fromEntries(address.searchParams),
				body,
				webhookUrl: `${receiver.url}/webhook/deliveries`,
				executionMode: 'production',
			},
		};
	} finally {
		await receiver.close();
	}
}

/** One node of a workflow that lives across runs, as a published workflow does. */
function deliveryNode(
	parameters: IDataObject,
	onError?: 'continueRegularOutput' | 'continueErrorOutput',
) {
	const id = randomUUID();
	return (items: IDataObject[]) =>
		runWorkflow({
			nodes: [
				{
					id,
					name: 'Scraping Delivery',
					type: DELIVERY,
					parameters: { resource: 'delivery', operation: 'read', ...parameters },
					...(onError ? { onError } : {}),
				},
			],
			nodeTypes: { ...nodeTypes, [DELIVERY]: new ScrapingDelivery() },
			inputItems: items.map((json) => ({ json })),
			mode: 'webhook',
		});
}

describe('Scraping Delivery on the engine, fed a real callback as the Webhook node gives it', () => {
	const requiringSecret = { requireSecret: true, secret: SECRET };

	it('gives the delivery as the trigger does, then nothing for its repeat', async () => {
		const { item, jobId } = await deliveredReviewJob();
		const run = deliveryNode(requiringSecret);

		const first = await run([item]);
		expect(first.status).toBe('success');
		const [output] = first.output('Scraping Delivery');
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			kind: 'reviewJob',
			id: String(jobId),
			outcome: 'completed',
			deliveryKey: expect.stringMatching(new RegExp(`^reviewJob:${String(jobId)}:[0-9a-f]{32}$`)),
			recordCount: ((item.body as IDataObject).reviews as unknown[]).length,
			payload: expect.objectContaining({ job_id: jobId }),
		});
		expect(JSON.stringify(output)).not.toContain(SECRET);

		const repeat = await run([item]);
		expect(repeat.status).toBe('success');
		expect(repeat.json('Scraping Delivery')).toEqual([]);
	});

	it('fails a forged delivery, naming the item, or gives an error item with On Error → Continue, on the error output alone when chosen', async () => {
		const { item } = await deliveredReviewJob();
		const forged = { ...item, query: { secret: 'forged' } };

		const stopped = await deliveryNode(requiringSecret)([forged]);
		expect(stopped.status).toBe('error');
		expect(stopped.nodeError('Scraping Delivery')?.message).toBe(
			'Invalid or missing callback secret (item 0)',
		);

		const continued = await deliveryNode(requiringSecret, 'continueRegularOutput')([forged, item]);
		expect(continued.status).toBe('success');
		expect(
			continued
				.output('Scraping Delivery')[0]
				.map(({ json, pairedItem }) => [
					json.error ?? json.kind,
					(pairedItem as { item: number }).item,
				]),
		).toEqual([
			['Invalid or missing callback secret (item 0)', 0],
			['reviewJob', 1],
		]);

		const routed = await deliveryNode(requiringSecret, 'continueErrorOutput')([forged, item]);
		expect(routed.status).toBe('success');
		const [success, failure] = routed.output('Scraping Delivery');
		expect(success.map(({ json, pairedItem }) => [json.kind, pairedItem])).toEqual([
			['reviewJob', { item: 1 }],
		]);
		expect(failure.map(({ json, pairedItem }) => [json.error, pairedItem])).toEqual([
			['Invalid or missing callback secret (item 0)', { item: 0 }],
		]);
	});
});
