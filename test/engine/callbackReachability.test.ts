import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ScheduledScrapeTrigger } from '../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { callbackOperations, newestVersion, waitingOperations } from '../settings/matrix';
import { credentialTypes, credentialsFor, runNode, useSimulator } from './fixtures';
import { triggerHarness } from './harness';
import type { Simulator } from '../../simulator/server';

const { PUBLIC_SERVICE_DOMAIN } = require('../support/public-service-host.cjs') as {
	PUBLIC_SERVICE_DOMAIN: string;
};

/**
 * A job whose callback the service cannot reach is refused before it is sent, on every operation
 * that takes a callback: the operations come from the nodes' own tables (an operation with a
 * Callback URL field), the items and subjects from the settings matrix. The service is given a
 * public host name that resolves to the simulator in this process only (public-service-host.cjs).
 */
const context = useSimulator();
const NODE = 'Node Under Test';
const LOCAL_CALLBACK = 'http://localhost:5678/webhook/reviews';
const PUBLIC_CALLBACK = 'https://hooks.example.com/webhook/reviews';

/** The simulator's URLs with 127.0.0.1 replaced by a public host name. */
const publicCredentials = (sim: Simulator): ReturnType<typeof credentialsFor> =>
	JSON.parse(
		JSON.stringify(credentialsFor(sim)).replaceAll('127.0.0.1', `api.${PUBLIC_SERVICE_DOMAIN}`),
	);
const onPublicHost = () => ({ credentials: publicCredentials(context.sim) });
const REVIEW_SCRAPER = 'n8n-nodes-review-scraping.reviewScraper';

const takingCallbacks = callbackOperations();

it('finds the operations that take a callback in the nodes, each with a settings-matrix row', () => {
	expect(takingCallbacks.length).toBeGreaterThan(0);
	// Every operation that can wait takes a callback the wait fills in.
	expect(waitingOperations().length).toBeGreaterThan(0);
	expect(takingCallbacks.map(({ node, operation }) => `${node} ${operation}`)).toEqual(
		expect.arrayContaining(waitingOperations()),
	);
});

describe.each(takingCallbacks)(
	'$node $operation',
	({ node, operation, parameter, type, waits, row }) => {
		const [resource, operationName] = operation.split('.');

		/** The operation's node: the matrix row's parameters and `parameters` over them. */
		const operationNode = (parameters: IDataObject, settings: IDataObject = {}) => ({
			type: `n8n-nodes-review-scraping.${node}`,
			typeVersion: newestVersion(type),
			parameters: { ...row.parameters, resource, operation: operationName, ...parameters },
			...settings,
		});

		/** Items 0 and 1 of the matrix row, item 0 with a local callback, item 1 with a public one. */
		async function run(settings: IDataObject = {}, options: INodeParameters = {}) {
			const [first, second] = await row.items(context.sim, `reach${Object.keys(settings).length}`);
			const items = [
				{ ...first, callbackForTest: LOCAL_CALLBACK },
				{ ...second, callbackForTest: PUBLIC_CALLBACK },
			];
			const callback = { [parameter]: '={{ $json.callbackForTest }}' };
			const withOptions = Object.keys(options).length > 0 ? { ...callback, options } : callback;
			const spec = operationNode(withOptions, settings);
			const result = await runNode(context.sim, spec, items, onPublicHost());
			const sent = (item: IDataObject) => context.sim.submissions()[row.goodSubject!(item)] ?? 0;
			return { result, items, sentFirst: sent(items[0]), sentSecond: sent(items[1]) };
		}

		it('stops the run at the item with a local callback, naming the field, the URL and the item; nothing sent', async () => {
			const { result, sentFirst, sentSecond } = await run();
			expect(result.status).toBe('error');
			const error = result.nodeError(NODE) as { message: string; description?: string };
			expect(error.message).toBe(
				`Callback URL cannot be reached by the service: ${LOCAL_CALLBACK} (item 0)`,
			);
			expect(error.description).toContain('localhost is localhost');
			expect(error.description).toContain('N8N_WEBHOOK_URL');
			expect(error.description).toContain('Nothing was sent for this item');
			expect([sentFirst, sentSecond]).toEqual([0, 0]);
		});

		it('with the error output, the local item is refused there and the public one is sent once', async () => {
			const { result, sentFirst, sentSecond } = await run({ onError: 'continueErrorOutput' });
			expect(result.status).toBe('success');
			const [success, errors] = result.output(NODE);
			expect(errors.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
			expect(String(errors[0].json.error)).toContain('cannot be reached by the service');
			expect(success.length).toBeGreaterThan(0);
			expect(success.every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(true);
			expect([sentFirst, sentSecond]).toEqual([0, 1]);
		});

		it('with "Allow Private Callback URL" on, both are sent', async () => {
			const { result, sentFirst, sentSecond } = await run({}, { allowPrivateCallback: true });
			expect(result.status).toBe('success');
			expect([sentFirst, sentSecond]).toEqual([1, 1]);
		});

		if (waits) {
			it("Wait for Completion: n8n's resume URL on 127.0.0.1 is refused, nothing sent", async () => {
				const [first] = await row.items(context.sim, 'reachWait');
				const spec = operationNode({ waitForCompletion: true });
				const result = await runNode(context.sim, spec, [first], onPublicHost());
				expect(result.status).toBe('error');
				const error = result.nodeError(NODE) as { message: string; description?: string };
				expect(error.message).toMatch(
					/^Wait for Completion's callback \(this execution's resume URL\) cannot be reached by the service: http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/.+ \(item 0\)$/,
				);
				expect(error.message).not.toMatch(/signature=(?!\*\*\*)/);
				expect(error.description).toContain("set n8n's N8N_WEBHOOK_URL");
				expect(context.sim.submissions()).toEqual({});
			});
		}
	},
);

describe('profiles in one request', () => {
	it("Add Many from a list field: the profile with a private callback is refused, the list's others are queued", async () => {
		const profiles = [
			{ url: 'https://reviews.example.com/list/0', callback: PUBLIC_CALLBACK },
			{ url: 'https://reviews.example.com/list/1', callback: 'http://192.168.1.10:5678/hook' },
			{ url: 'https://reviews.example.com/list/2', callback: PUBLIC_CALLBACK },
		];
		const result = await runNode(
			context.sim,
			{
				type: REVIEW_SCRAPER,
				parameters: {
					resource: 'profile',
					operation: 'addMany',
					inputMode: 'listField',
					listField: 'profiles',
				},
				onError: 'continueErrorOutput',
			},
			[{ profiles }],
			onPublicHost(),
		);
		const [success, errors] = result.output(NODE);
		expect(success).toHaveLength(2);
		expect(errors.map((item) => item.json.error)).toEqual([
			'Callback URL of profile 1 of item 0 cannot be reached by the service: http://192.168.1.10:5678/hook (item 0)',
		]);
		expect(context.sim.submissions()).toEqual({
			'https://reviews.example.com/list/0': 1,
			'https://reviews.example.com/list/2': 1,
		});
	});

	it("the Scheduler's add_bulk names the profile of its JSON list; no schedule is created", async () => {
		const result = await runNode(
			context.sim,
			{
				type: 'n8n-nodes-review-scraping.scrapingScheduler',
				parameters: {
					resource: 'schedule',
					operation: 'create',
					service: 'rsapi',
					endpoint: 'add_bulk',
					frequency: 'daily',
					parametersInput: 'json',
					bulkBody: JSON.stringify([
						{ url: 'https://reviews.example.com/b/1', callback: PUBLIC_CALLBACK },
						{ url: 'https://reviews.example.com/b/2', callback: 'http://n8n:5678/webhook/x' },
					]),
				},
			},
			[{}],
			onPublicHost(),
		);
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.message).toBe(
			'Callback URL of profile 2 cannot be reached by the service: http://n8n:5678/webhook/x (item 0)',
		);
		expect(context.sim.counts().schedules).toBe(0);
	});
});

describe('the Recurring Reviews Trigger', () => {
	const TYPE = 'n8n-nodes-review-scraping.scheduledScrapeTrigger';
	const url = 'https://reviews.example.com/biz/trigger';
	const trigger = (options: INodeParameters = {}) =>
		triggerHarness({
			node: 'Trigger',
			nodes: [
				{
					name: 'Trigger',
					type: TYPE,
					parameters: { collect: 'profile', frequency: 'daily', url, options },
					webhookId: 'reachability-trigger',
				},
			],
			nodeTypes: { [TYPE]: new ScheduledScrapeTrigger() },
			credentialTypes,
			credentials: publicCredentials(context.sim),
		});

	it('refuses to activate with its webhook URL on 127.0.0.1, the secret masked; no schedule', async () => {
		const node = trigger();
		const activation = node.lifecycle('create');
		// n8n shows an activation error's message alone: what to do is in it.
		await expect(activation).rejects.toThrow(
			/^The trigger's webhook URL cannot be reached by the service: http:\/\/127\.0\.0\.1:5678\/webhook\/reachability-trigger\/scheduled\?secret=\*\*\*\. 127\.0\.0\.1 is a loopback address: .+ No schedule was created\. This is n8n's own address: set n8n's N8N_WEBHOOK_URL .+"Allow Private Callback URL"\.$/,
		);
		expect(context.sim.counts().schedules).toBe(0);
	});

	it('activates with "Allow Private Callback URL" on', async () => {
		expect(await trigger({ allowPrivateCallback: true }).lifecycle('create')).toBe(true);
		expect(context.sim.counts().schedules).toBe(1);
	});
});

describe('Profile → Add with neither a Callback URL nor Wait for Completion', () => {
	it('is sent, with an execution hint in the output panel saying its reviews reach no workflow', async () => {
		const result = await runNode(
			context.sim,
			{
				type: REVIEW_SCRAPER,
				parameters: { resource: 'profile', operation: 'add', url: '={{ $json.url }}' },
			},
			[
				{ url: 'https://reviews.example.com/nowhere/1' },
				{ url: 'https://reviews.example.com/nowhere/2' },
			],
		);
		expect(result.status).toBe('success');
		expect(context.sim.submissions()).toEqual({
			'https://reviews.example.com/nowhere/1': 1,
			'https://reviews.example.com/nowhere/2': 1,
		});
		const hints = result.runData[NODE].at(-1)?.hints ?? [];
		expect(hints).toEqual([
			expect.objectContaining({
				message: expect.stringMatching(
					/^Jobs were sent without a callback: their reviews reach no workflow/,
				),
				location: 'outputPane',
			}),
		]);
	});

	// The service in this process is on a local host: it is given a localhost callback, as every
	// other test does.
	it('gives no hint when a callback is set, a localhost one to a local service', async () => {
		const url = 'https://reviews.example.com/local-service';
		const result = await runNode(context.sim, {
			type: REVIEW_SCRAPER,
			parameters: { resource: 'profile', operation: 'add', url, callback: LOCAL_CALLBACK },
		});
		expect(result.status).toBe('success');
		expect(context.sim.submissions()).toEqual({ [url]: 1 });
		expect(result.runData[NODE].at(-1)?.hints ?? []).toEqual([]);
	});
});
