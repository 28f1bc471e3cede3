import { randomBytes } from 'node:crypto';

import type { Simulator } from '../../simulator/server';
import { HttpError, type N8nClient, type WorkflowNode } from './harness/client';
import { builtCredentialTypes, simulatorCredentialData, startSimulator } from './harness/fixtures';
import { connect } from './harness/state';
import { nodeRun, packageNode, runThroughWebhook, splitOutNode } from './harness/workflows';

const { PUBLIC_SERVICE_DOMAIN } = require('../support/public-service-host.cjs') as {
	PUBLIC_SERVICE_DOMAIN: string;
};

/**
 * A user's n8n at its default address (here 127.0.0.1, as `localhost:5678` is on a laptop), the
 * service on the internet: a job whose results could not come back is refused before it is sent.
 * The credential names the service by a public host name; n8n's processes resolve it to the
 * simulator (test/support/public-service-host.cjs), and the check refuses before any lookup.
 */
let client: N8nClient;
let simulator: Simulator;
let publicService: Record<string, { id: string; name: string }>;

const PUBLIC_CALLBACK = 'https://hooks.example.com/webhook/reviews';

beforeAll(async () => {
	({ client } = connect());
	simulator = await startSimulator();
	publicService = {};
	for (const credential of builtCredentialTypes()) {
		const onPublicHost: Record<string, string> = {};
		for (const [field, url] of Object.entries(
			simulator.urls as unknown as Record<string, string>,
		)) {
			onPublicHost[field] = url.replace('127.0.0.1', `api.${PUBLIC_SERVICE_DOMAIN}`);
		}
		publicService[credential.name] = await client.createCredential(
			`${credential.displayName} (public host, reachability e2e)`,
			credential.name,
			simulatorCredentialData(credential, simulator, onPublicHost),
		);
	}
});

afterAll(async () => {
	await simulator?.stop();
});

beforeEach(() => simulator.reset());

const reviewScraper = (parameters: Record<string, unknown>, onError?: WorkflowNode['onError']) => ({
	...packageNode('reviewScraper', 'Review Scraper', parameters, {
		reviewScraperApi: publicService.reviewScraperApi,
	}),
	typeVersion: 1.2,
	...(onError ? { onError } : {}),
});

/** n8n saves each output item's link to its input item; the harness's type leaves it out. */
const pairedItemOf = (item: { json: unknown }) => (item as { pairedItem?: unknown }).pairedItem;

const errorOf = (run: Awaited<ReturnType<typeof runThroughWebhook>>) =>
	run.execution.data?.resultData.error as { message?: string; description?: string } | undefined;

describe('a job whose results cannot come back is refused before it is sent, in real n8n', () => {
	it("Wait for Completion with n8n's resume URL on 127.0.0.1: refused with what to do, nothing sent", async () => {
		const run = await runThroughWebhook(client, 'reachability: wait', [
			reviewScraper({
				resource: 'profile',
				operation: 'add',
				url: 'https://reviews.example.com/reach/wait',
				waitForCompletion: true,
			}),
		]);
		expect(run.execution.status).toBe('error');
		const error = errorOf(run);
		expect(error?.message).toMatch(
			/^Wait for Completion's callback \(this execution's resume URL\) cannot be reached by the service: http:\/\/127\.0\.0\.1:\d+\/webhook-waiting\/\d+\/.+ \(item 0\)$/,
		);
		expect(error?.description).toContain("set n8n's WEBHOOK_URL");
		expect(simulator.submissions()).toEqual({});
		expect(simulator.counts().jobs).toBe(0);
	});

	it('Callback URLs on localhost, 192.168.1.10 and http://n8n:5678 go to the error output; the public one is queued', async () => {
		const callbacks = [
			'http://localhost:5678/webhook/reviews',
			'http://192.168.1.10:5678/webhook/reviews',
			PUBLIC_CALLBACK,
			'http://n8n:5678/webhook/reviews',
		];
		const run = await runThroughWebhook(
			client,
			'reachability: callbacks',
			[
				splitOutNode('body.profiles'),
				reviewScraper(
					{
						resource: 'profile',
						operation: 'add',
						url: '={{ $json.url }}',
						callback: '={{ $json.callback }}',
					},
					'continueErrorOutput',
				),
			],
			{
				profiles: callbacks.map((callback, n) => ({
					callback,
					url: `https://reviews.example.com/reach/${n}`,
				})),
			},
		);
		expect(run.execution.status).toBe('success');
		const [success, errors] = nodeRun(run.execution, 'Review Scraper').data!.main;
		expect((success ?? []).map(pairedItemOf)).toEqual([{ item: 2 }]);
		expect((errors ?? []).map((item) => [pairedItemOf(item), item.json.error])).toEqual([
			[
				{ item: 0 },
				'Callback URL cannot be reached by the service: http://localhost:5678/webhook/reviews (item 0)',
			],
			[
				{ item: 1 },
				'Callback URL cannot be reached by the service: http://192.168.1.10:5678/webhook/reviews (item 1)',
			],
			[
				{ item: 3 },
				'Callback URL cannot be reached by the service: http://n8n:5678/webhook/reviews (item 3)',
			],
		]);
		expect(simulator.submissions()).toEqual({ 'https://reviews.example.com/reach/2': 1 });
	});

	it('Add Many: the profile with a localhost callback is refused, the other one is queued', async () => {
		const run = await runThroughWebhook(
			client,
			'reachability: add many',
			[
				splitOutNode('body.profiles'),
				reviewScraper(
					{ resource: 'profile', operation: 'addMany', inputMode: 'autoMap' },
					'continueErrorOutput',
				),
			],
			{
				profiles: [
					{
						url: 'https://reviews.example.com/reach/many/0',
						callback: 'http://localhost:5678/webhook/x',
					},
					{ url: 'https://reviews.example.com/reach/many/1', callback: PUBLIC_CALLBACK },
				],
			},
		);
		const [success, errors] = nodeRun(run.execution, 'Review Scraper').data!.main;
		expect((success ?? []).map(pairedItemOf)).toEqual([{ item: 1 }]);
		expect((errors ?? []).map((item) => item.json.error)).toEqual([
			'Callback URL cannot be reached by the service: http://localhost:5678/webhook/x (item 0)',
		]);
		expect(simulator.submissions()).toEqual({ 'https://reviews.example.com/reach/many/1': 1 });
	});

	it("the Scheduler's Create with a callback on localhost: refused, no schedule on the service", async () => {
		const run = await runThroughWebhook(client, 'reachability: schedule', [
			{
				...packageNode(
					'scrapingScheduler',
					'Scheduler',
					{
						resource: 'schedule',
						operation: 'create',
						service: 'rsapi',
						endpoint: 'add',
						frequency: 'daily',
						parametersInput: 'fields',
						url: 'https://reviews.example.com/reach/schedule',
						callback: 'http://localhost:5678/webhook/schedules',
					},
					{ scrapingApi: publicService.scrapingApi },
				),
				typeVersion: 1.1,
			},
		]);
		expect(run.execution.status).toBe('error');
		expect(errorOf(run)?.message).toBe(
			'Callback URL cannot be reached by the service: http://localhost:5678/webhook/schedules (item 0)',
		);
		expect(simulator.counts().schedules).toBe(0);
	});

	it("the Recurring Reviews Trigger's activation is refused with the message; no schedule is created", async () => {
		const trigger = packageNode(
			'scheduledScrapeTrigger',
			'Recurring Reviews',
			{ collect: 'profile', frequency: 'daily', url: 'https://reviews.example.com/reach/trigger' },
			{ scrapingApi: publicService.scrapingApi },
		);
		const { id } = await client.createWorkflow({
			name: `reachability: trigger ${randomBytes(4).toString('hex')}`,
			nodes: [trigger],
			connections: {},
			settings: {},
		});
		const refusal = await activationFailure(id);
		expect(refusal).toContain(
			"The trigger's webhook URL cannot be reached by the service: http://127.0.0.1:",
		);
		expect(refusal).toContain("set n8n's WEBHOOK_URL");
		expect(refusal).toContain('?secret=***');
		expect(refusal).not.toMatch(/secret=(?!\*\*\*)/);
		expect(simulator.counts().schedules).toBe(0);
		await client.deactivate(id).catch(() => undefined);
	});
});

/**
 * What n8n says of a failed activation: n8n 1.x refuses the activate call; n8n 2.x publishes in
 * the background, tries a failing trigger 5 times over about 15 s (trigger-activation-retry.js)
 * and then keeps the failure in the workflow's publication status.
 */
async function activationFailure(id: string): Promise<string> {
	try {
		await client.activate(id);
	} catch (error) {
		if (error instanceof HttpError) return JSON.stringify(error.body);
		throw error;
	}
	for (let poll = 0; poll < 300; poll++) {
		const { status, triggers } = await client.rest<{
			status: string;
			triggers: Array<{ status: string; errorMessage: string | null }>;
		}>('GET', `/workflows/${id}/publication-status`);
		const failed = triggers.find((trigger) => trigger.status === 'failed');
		if (failed) return String(failed.errorMessage);
		if (status !== 'in_progress' && triggers.length > 0) {
			throw new Error(`The activation did not fail: ${JSON.stringify({ status, triggers })}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error('The activation neither failed nor ended within 30 s');
}

describe('Profile → Add with neither a Callback URL nor Wait for Completion, in real n8n', () => {
	it('is queued, with an execution hint in the run data saying its reviews reach no workflow', async () => {
		const run = await runThroughWebhook(client, 'reachability: no destination', [
			reviewScraper({
				resource: 'profile',
				operation: 'add',
				url: 'https://reviews.example.com/reach/nowhere',
			}),
		]);
		expect(run.execution.status).toBe('success');
		expect(simulator.submissions()).toEqual({ 'https://reviews.example.com/reach/nowhere': 1 });
		const { hints } = nodeRun(run.execution, 'Review Scraper') as { hints?: unknown[] };
		expect(hints).toEqual([
			expect.objectContaining({
				message: expect.stringMatching(
					/^Jobs were sent without a callback: their reviews reach no workflow/,
				),
				location: 'outputPane',
			}),
		]);
	});
});
