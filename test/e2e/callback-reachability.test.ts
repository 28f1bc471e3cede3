import { randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { callbackOperations, newestVersion } from '../settings/matrix';
import { HttpError, type WorkflowNode } from './harness/client';
import { builtCredentialTypes, simulatorCredentialData } from './harness/fixtures';
import { nodeRun, packageNode, runThroughWebhook, splitOutNode } from './harness/workflows';
import { useE2e } from './harness/suite';

const { PUBLIC_SERVICE_DOMAIN } = require('../support/public-service-host.cjs') as {
	PUBLIC_SERVICE_DOMAIN: string;
};

/**
 * A user's n8n at its default address (here 127.0.0.1, as `localhost:5678` is on a laptop), the
 * service on the internet: a job whose results could not come back is refused before it is sent.
 * The credential names the service by a public host name; n8n's processes resolve it to the
 * simulator (test/support/public-service-host.cjs), and the check refuses before any lookup.
 */
const { client, simulator } = useE2e();
let publicService: Record<string, { id: string; name: string }>;

const PUBLIC_CALLBACK = 'https://hooks.example.com/webhook/reviews';
const NODE = 'Node Under Test';

beforeAll(async () => {
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

const LOCAL_CALLBACK = 'http://localhost:5678/webhook/reviews';

describe.each(callbackOperations())(
	'$node $operation in real n8n (generated from the operation tables)',
	({ node, operation, parameter, type, waits, row }) => {
		const [resource, operationName] = operation.split('.');
		const nodeUnderTest = (
			parameters: Record<string, unknown>,
			onError?: WorkflowNode['onError'],
		) => {
			const credential = node === 'reviewScraper' ? 'reviewScraperApi' : 'scrapingApi';
			return {
				...packageNode(
					node,
					NODE,
					{ ...row.parameters, resource, operation: operationName, ...parameters },
					{
						[credential]: publicService[credential],
					},
				),
				typeVersion: newestVersion(type),
				...(onError ? { onError } : {}),
			};
		};

		it('the item with a localhost callback goes to the error output unsent; the one with a public callback is sent once', async () => {
			const [first, second] = await row.items(simulator, 'e2e-reach');
			const items = [
				{ ...first, callbackForTest: LOCAL_CALLBACK },
				{ ...second, callbackForTest: PUBLIC_CALLBACK },
			];
			const run = await runThroughWebhook(
				client,
				`reachability: ${node} ${operation}`,
				[
					splitOutNode('body.items'),
					nodeUnderTest({ [parameter]: '={{ $json.callbackForTest }}' }, 'continueErrorOutput'),
				],
				{ items },
			);
			const [success, errors] = nodeRun(run.execution, NODE).data!.main;
			expect((errors ?? []).map((item) => [pairedItemOf(item), item.json.error])).toEqual([
				[{ item: 0 }, `Callback URL cannot be reached by the service: ${LOCAL_CALLBACK} (item 0)`],
			]);
			expect((success ?? []).length).toBeGreaterThan(0);
			expect(
				(success ?? []).every((item) => (pairedItemOf(item) as { item: number }).item === 1),
			).toBe(true);
			const sent = (item: IDataObject) => simulator.submissions()[row.goodSubject!(item)] ?? 0;
			expect([sent(items[0]), sent(items[1])]).toEqual([0, 1]);
		});

		if (waits) {
			it("Wait for Completion with n8n's resume URL on 127.0.0.1: refused with what to do, nothing sent", async () => {
				const [first] = await row.items(simulator, 'e2e-reach-wait');
				const run = await runThroughWebhook(
					client,
					`reachability: ${node} ${operation} waiting`,
					[splitOutNode('body.items'), nodeUnderTest({ waitForCompletion: true })],
					{ items: [first] },
				);
				expect(run.execution.status).toBe('error');
				const error = errorOf(run);
				expect(error?.message).toMatch(
					/^Wait for Completion's callback \(this execution's resume URL\) cannot be reached by the service: http:\/\/127\.0\.0\.1:\d+\/webhook-waiting\/\d+\/.+ \(item 0\)$/,
				);
				expect(error?.description).toContain("set n8n's WEBHOOK_URL");
				expect(simulator.submissions()).toEqual({});
			});
		}
	},
);

describe('a job whose results cannot come back is refused before it is sent, in real n8n', () => {
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
