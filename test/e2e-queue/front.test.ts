/**
 * The production stack's front (deploy/haproxy.cfg, docs/production.md), as the twin runs it: the
 * editor's /rest and the test webhooks reach main; a production delivery and a resume reach a
 * webhook process and run on a worker.
 */
import { randomUUID } from 'node:crypto';

import {
	countResumed,
	sendEachAtOnce,
	waitingNodes,
	waitingWithHeldCallbacks,
} from '../e2e/harness/burst';
import { packageName } from '../e2e/harness/package';
import { activateChain, packageNode, postToWebhook, webhookNode } from '../e2e/harness/workflows';
import { processLogs, timesEnqueued, useQueueE2e, workersThatRan } from './helpers';

const { client, state, simulator, credentials, activated } = useQueueE2e({
	credentials: 'front',
});
const front = state.queue.frontUrl;
/** A webhook process itself, behind the front. */
const webhookProcess = state.queue.processes.find((p) => p.name === 'webhook')!.url;

async function answer(url: string, method = 'GET') {
	const res = await fetch(url, { method, signal: AbortSignal.timeout(30_000) });
	return { status: res.status, text: await res.text() };
}

describe('the shipped front before the twin', () => {
	it('sends /rest and test webhooks to main, which the webhook process does not serve', async () => {
		const settings = await answer(`${front}/rest/settings`);
		expect(settings.status).toBe(200);
		// What main shows the login page before anyone signs in.
		expect(JSON.parse(settings.text)).toEqual({
			data: expect.objectContaining({ settingsMode: 'public', communityNodesEnabled: true }),
		});
		expect((await answer(`${webhookProcess}/rest/settings`)).status).not.toBe(200);

		// Main's test-webhook handler answers an unregistered test URL with its own hint.
		const testPath = `/webhook-test/${randomUUID()}/callback`;
		const viaFront = await answer(`${front}${testPath}`, 'POST');
		expect(viaFront.status).toBe(404);
		expect(viaFront.text).toContain('In test mode');
		expect((await answer(`${webhookProcess}${testPath}`, 'POST')).text).not.toContain(
			'In test mode',
		);
		expect((await answer(`${front}/healthz`)).status).toBe(200);
	});

	it('sends a production delivery to a webhook process, and it runs on a worker', async () => {
		const trigger = packageNode('scrapingCallbackTrigger', 'Scraping Callback Trigger', {});
		const workflowId = await activateChain(client, 'front: callback trigger', [trigger]);
		activated.add(workflowId);
		const url = `${front}/webhook/${trigger.webhookId}/callback`;
		// Registered (it retries n8n's 404 of the moments after activation), and not a job's result.
		expect((await postToWebhook(url, {})).status).toBe(400);
		// The service delivers a finished job to the front.
		const query = new URLSearchParams({
			url: `https://www.example.com/biz/front-${randomUUID()}`,
			blocks: '3',
			callback: url,
		});
		const res = await fetch(`${simulator.urls.baseUrl}/api/v2/profiles/add?${query}`, {
			method: 'POST',
			headers: { 'spiderman-token': simulator.config.token },
		});
		expect(res.status).toBe(200);
		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		expect(delivery).toEqual(expect.objectContaining({ state: 'delivered', finalStatus: 200 }));

		const [execution] = await client.waitForExecutions(workflowId, 1, 30_000);
		expect(execution.status).toBe('success');
		expect(timesEnqueued(processLogs('webhook'), execution.id)).toBe(1);
		expect(timesEnqueued(processLogs('main'), execution.id)).toBe(0);
		expect(workersThatRan(execution.id)).toHaveLength(1);
	});

	it('sends a resume to a webhook process, and the execution resumes on a worker', async () => {
		const path = `front-resume-${Date.now()}`;
		const workflowId = await activateChain(client, 'front: wait for completion', [
			webhookNode(path, { respond: 'onReceived' }),
			...waitingNodes(
				'waitForCompletion',
				packageName,
				simulator.urls.baseUrl,
				credentials.reviewScraperApi,
			),
		]);
		activated.add(workflowId);
		const { waiting, callbacks } = await waitingWithHeldCallbacks(
			client,
			simulator,
			workflowId,
			`${front}/webhook/${path}`,
			1,
			'front',
		);
		// n8n gave the service a resume URL at the front: the stack's N8N_WEBHOOK_URL.
		expect(callbacks[0].url.startsWith(`${front}/webhook-waiting/`)).toBe(true);
		const since = Date.now();
		const sent = await sendEachAtOnce(
			callbacks.map(({ url, body }) => ({ url, body })),
			30_000,
		);
		expect(sent.answeredInTime).toBe(1);
		const { resumed } = await countResumed(client, workflowId, waiting, since, 15_000, 60_000);
		expect(resumed).toEqual(waiting);
		const [execution] = (await client.listExecutions({ workflowId, limit: 5 })).filter(
			(e) => e.id === waiting[0],
		);
		expect(execution.status).toBe('success');
		// Started by the webhook process, then put on the queue again by it when resumed.
		expect(timesEnqueued(processLogs('webhook'), execution.id)).toBe(2);
		expect(timesEnqueued(processLogs('main'), execution.id)).toBe(0);
		expect(workersThatRan(execution.id)).toHaveLength(2);
	});
});
