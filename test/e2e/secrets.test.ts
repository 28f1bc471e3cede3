import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { WorkflowNode } from './harness/client';
import { builtCredentialTypes, secretField, simulatorCredentialData } from './harness/fixtures';
import {
	activateChain,
	packageNode,
	postToWebhook,
	productionUrl,
	runThroughWebhook,
	webhookBase,
} from './harness/workflows';
import { useE2e } from './harness/suite';

/**
 * Every secret this file hands to n8n, looked for afterwards in what n8n shows or keeps: node
 * output, errors, webhook answers, the executions it saved, and the log of every n8n process.
 */
const {
	client,
	state,
	simulator,
	credentials: right,
	activated,
} = useE2e({ credentials: 'secrets e2e', resetEachTest: false, deactivate: 'afterAll' });
let wrong: Record<string, { id: string; name: string }>;
const secrets = new Set<string>();
const seen: Array<{ what: string; text: string }> = [];

const WRONG_SECRET = `wrong-${randomBytes(12).toString('hex')}`;

beforeAll(async () => {
	wrong = {};
	for (const credential of builtCredentialTypes()) {
		wrong[credential.name] = await client.createCredential(
			`${credential.displayName} (secrets e2e, wrong)`,
			credential.name,
			simulatorCredentialData(credential, simulator, { [secretField(credential)]: WRONG_SECRET }),
		);
	}
	for (const secret of [simulator.config.token, simulator.config.apiKey, WRONG_SECRET]) {
		secrets.add(secret);
	}
});

const CALLBACK = 'https://n8n.example.com/webhook/secrets';

const operations: Array<[string, string, string, Record<string, unknown>]> = [
	[
		'profile add',
		'reviewScraper',
		'reviewScraperApi',
		{
			resource: 'profile',
			operation: 'add',
			url: 'https://www.example.com/biz/s',
			callback: CALLBACK,
		},
	],
	[
		'profile add many',
		'reviewScraper',
		'reviewScraperApi',
		{ resource: 'profile', operation: 'addMany', url: 'https://www.example.com/biz/m' },
	],
	[
		'respond jobs',
		'reviewScraper',
		'reviewScraperApi',
		{ resource: 'respondJob', operation: 'getAll', returnAll: true },
	],
	[
		'schedule create',
		'scrapingScheduler',
		'scrapingApi',
		{
			resource: 'schedule',
			operation: 'create',
			queryParameters: {
				parameter: [
					{ name: 'url', value: 'https://www.example.com/biz/c' },
					{ name: 'callback', value: CALLBACK },
				],
			},
		},
	],
	[
		'product search',
		'ecommerceSearch',
		'scrapingApi',
		{ resource: 'product', operation: 'search', keyword: 'headphones', callbackUrl: CALLBACK },
	],
	[
		'photo search',
		'socialScraper',
		'scrapingApi',
		{ resource: 'photoPost', operation: 'search', keyword: '#pizza', callbackUrl: CALLBACK },
	],
	[
		'schedules',
		'scrapingScheduler',
		'scrapingApi',
		{ resource: 'schedule', operation: 'getAll', returnAll: true },
	],
];

/**
 * What a saved execution shows of its run: every node's output and error, and the run's error.
 * The copy of the workflow it also keeps is left out: a node parameter such as the Callback
 * Trigger's secret is part of the workflow definition, stored and shown as the workflow is.
 */
async function savedRun(executionId: string): Promise<string> {
	const saved = await client.getExecution(executionId);
	expect(saved.data?.resultData.runData).toBeDefined();
	return JSON.stringify(saved.data?.resultData);
}

async function record(what: string, run: Awaited<ReturnType<typeof runThroughWebhook>>) {
	seen.push({ what: `${what}: webhook answer`, text: JSON.stringify(run.response) });
	seen.push({ what: `${what}: saved execution`, text: await savedRun(String(run.execution.id)) });
}

describe('no token, key or callback secret in what n8n shows, saves or logs', () => {
	it.each(operations)(
		'%s: success, refused credential, service failure',
		async (name, type, credentialType, parameters) => {
			const node = (credentials: typeof right, extra: Partial<WorkflowNode> = {}) => ({
				...packageNode(type, 'Node', parameters, {
					[credentialType]: credentials[credentialType],
				}),
				...extra,
			});

			const success = await runThroughWebhook(client, `secrets: ${name}`, [node(right)]);
			expect(success.execution.status).toBe('success');
			await record(`${name} success`, success);

			const refused = await runThroughWebhook(client, `secrets: ${name}, wrong`, [node(wrong)]);
			expect(refused.execution.status).toBe('error');
			expect(JSON.stringify(refused.run('Node').error)).toMatch(/401|403|token|key/i);
			await record(`${name} refused`, refused);

			simulator.injectFault({ kind: '500', times: 20 });
			const failed = await runThroughWebhook(client, `secrets: ${name}, 500`, [
				node(right, { continueOnFail: true } as Partial<WorkflowNode>),
			]);
			simulator.clearFaults();
			expect(failed.output('Node')[0]).toEqual(
				expect.objectContaining({ error: expect.any(String) }),
			);
			await record(`${name} failure`, failed);
		},
	);

	it('Scraping Callback Trigger: its secret stays out of answers and executions', async () => {
		const secret = randomBytes(16).toString('hex');
		secrets.add(secret);
		const trigger = packageNode('scrapingCallbackTrigger', 'Trigger', {
			requireSecret: true,
			secret,
			secretLocation: 'header',
		});
		const id = await activateChain(client, 'secrets: callback trigger', [trigger]);
		activated.add(id);
		const url = productionUrl(webhookBase(state), trigger, 'callback');
		const body = { job_id: Date.now(), status: 'complete', reviews: [] };

		const refused = await postToWebhook(url, body, {
			headers: { 'x-callback-secret': `${secret}0` },
		});
		expect(refused.status).toBe(401);
		seen.push({ what: 'trigger refusal', text: JSON.stringify(refused) });
		const accepted = await postToWebhook(url, body, { headers: { 'x-callback-secret': secret } });
		expect(accepted.status).toBe(200);
		seen.push({ what: 'trigger answer', text: JSON.stringify(accepted) });
		const [execution] = await client.waitForExecutions(id, 1);
		seen.push({
			what: 'trigger execution',
			text: await savedRun(String(execution.id)),
		});
	});

	it('a callback URL with ?secret= echoed by the service stays out of trigger items, Get Status and Get Results', async () => {
		const secret = randomBytes(16).toString('hex');
		secrets.add(secret);
		const trigger = packageNode('scrapingCallbackTrigger', 'Trigger', {
			requireSecret: true,
			secret,
			secretLocation: 'query',
		});
		simulator.reset();
		const id = await activateChain(client, 'secrets: echoed callback', [trigger]);
		activated.add(id);
		const url = productionUrl(webhookBase(state), trigger, 'callback');
		expect((await postToWebhook(url, {})).status).toBe(401);
		const callbackUrl = `${url}?secret=${secret}`;

		const scraper = (parameters: Record<string, unknown>) =>
			packageNode('socialScraper', 'Node', parameters, { scrapingApi: right.scrapingApi });
		const search = await runThroughWebhook(client, 'secrets: search echoing its callback', [
			scraper({ resource: 'photoPost', operation: 'search', keyword: '#echo', callbackUrl }),
		]);
		expect(search.execution.status).toBe('success');
		const requestId = String(search.output('Node')[0].request_id);
		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		expect(JSON.stringify(delivery.payload)).toContain(secret);
		expect(delivery.attemptLog.at(-1)?.status).toBe(200);
		const [execution] = await client.waitForExecutions(id, 1, 20_000);
		const delivered = await savedRun(String(execution.id));
		expect(delivered).toContain('secret=***');
		seen.push({ what: 'echoed callback: trigger execution', text: delivered });

		for (const operation of ['getStatus', 'getResults']) {
			const read = await runThroughWebhook(client, `secrets: photo ${operation}`, [
				scraper({ resource: 'photoPost', operation, requestId }),
			]);
			expect(read.execution.status).toBe('success');
			// Get Status shows the echoed request_metadata; Get Results gives the posts alone.
			if (operation === 'getStatus') {
				expect(JSON.stringify(read.output('Node'))).toContain('secret=***');
			}
			await record(`echoed callback: ${operation}`, read);
		}
	});

	it('Scheduled Scrape Trigger: the secret it puts in its callback URL stays out of executions', async () => {
		const trigger = packageNode(
			'scheduledScrapeTrigger',
			'Scheduled',
			{ collect: 'profile', frequency: 'daily', url: 'https://www.example.com/biz/sched' },
			{ scrapingApi: right.scrapingApi },
		);
		simulator.reset();
		const id = await activateChain(client, 'secrets: scheduled trigger', [trigger]);
		activated.add(id);
		const deadline = Date.now() + 10_000;
		while (simulator.state.schedules.size === 0 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const [record] = [...simulator.state.schedules.values()];
		expect(record).toBeDefined();
		const callback = new URL(String(record.schedule.payload.query_params.callback));
		const secret = callback.searchParams.get('secret');
		expect(secret).toMatch(/^[0-9a-f]{48}$/);
		secrets.add(secret!);

		const read = await runThroughWebhook(client, 'secrets: scheduler get of the trigger schedule', [
			packageNode(
				'scrapingScheduler',
				'Node',
				{
					resource: 'schedule',
					operation: 'get',
					scheduleId: { __rl: true, mode: 'id', value: String(record.schedule.schedule_id) },
				},
				{ scrapingApi: right.scrapingApi },
			),
		]);
		expect(read.execution.status).toBe('success');
		expect(JSON.stringify(read.output('Node'))).toContain('secret=***');
		seen.push({
			what: 'scheduler get of the trigger schedule',
			text: await savedRun(String(read.execution.id)),
		});

		expect((await simulator.fireSchedule(record.schedule.schedule_id)).response.status).toBe(200);
		const [execution] = await client.waitForExecutions(id, 1, 20_000);
		seen.push({
			what: 'scheduled trigger execution',
			text: await savedRun(String(execution.id)),
		});
		await client.deactivate(id);
		activated.delete(id);
	});

	it('none of them appears anywhere, n8n logs included', () => {
		const logs = state.queue
			? state.queue.processes.map((process) => process.logFile).filter(Boolean)
			: [state.logFile];
		for (const file of logs) seen.push({ what: `log ${file}`, text: readFileSync(file, 'utf8') });

		// The look-up must work: every saved execution and log was read, and holds text.
		expect(seen.length).toBeGreaterThanOrEqual(operations.length * 6 + 4 + logs.length);
		expect(secrets.size).toBeGreaterThanOrEqual(5);
		const found = seen.flatMap(({ what, text }) =>
			[...secrets].filter((secret) => text.includes(secret)).map(() => what),
		);
		expect(found).toEqual([]);
	});
});
