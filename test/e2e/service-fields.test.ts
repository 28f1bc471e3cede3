import type { ScheduleBody } from '../../simulator/schemas';
import type { WorkflowNode } from './harness/client';
import { activateChain, packageNode, runThroughWebhook } from './harness/workflows';
import { useE2e } from './harness/suite';

/** Every field as the service takes it (issue 21), in a real n8n. */

const { client, simulator, credentials, activated } = useE2e({ credentials: 'service fields e2e' });

const HOOK = 'https://hooks.example.com/e2e-fields';

const scheduler = (parameters: Record<string, unknown>): WorkflowNode =>
	packageNode(
		'scrapingScheduler',
		'Scraping Scheduler',
		{ resource: 'schedule', operation: 'create', frequency: 'daily', ...parameters },
		{ scrapingApi: credentials.scrapingApi },
	);

const schedulingPosts = () =>
	simulator.requests().filter((r) => r.api === 'scheduling' && r.method === 'POST');

const schedules = (): ScheduleBody[] =>
	[...simulator.state.schedules.values()].map((record) => record.schedule);

describe('Scraping Scheduler → Create', () => {
	it('stores a scheduled add with a timestamp from_date as YYYY-MM-DD and blocks as a number', async () => {
		const run = await runThroughWebhook(client, 'e2e scheduled add cleaned', [
			scheduler({
				service: 'rsapi',
				endpoint: 'add',
				queryParameters: {
					parameter: [
						{ name: 'url', value: 'https://www.example.com/biz/e2e-fields' },
						{ name: 'from_date', value: '={{ $now.toISO() }}' },
						{ name: 'blocks', value: '10.0' },
						{ name: 'callback', value: HOOK },
					],
				},
			}),
		]);
		expect(run.execution.status).toBe('success');
		const [schedule] = schedules();
		const stored = schedule.payload.query_params;
		expect(stored).toEqual({
			url: 'https://www.example.com/biz/e2e-fields',
			from_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
			blocks: 10,
			callback: HOOK,
		});
		// The date n8n's $now gave, in the instance's zone, not a day shifted by a conversion.
		const [sent] = schedulingPosts();
		expect((sent.body as { query_params: unknown }).query_params).toEqual(stored);
		expect(Math.abs(Date.parse(String(stored.from_date)) - Date.now())).toBeLessThan(
			2 * 86_400_000,
		);
	});

	it('version 1.1 (the default): a schedule of a review profile given by its fields', async () => {
		const node = {
			...scheduler({
				service: 'rsapi',
				endpoint: 'add',
				url: 'https://www.example.com/biz/e2e-v11',
				callback: HOOK,
				additionalFields: { blocks: 7, fromDate: '={{ $now.toISODate() }}' },
			}),
			typeVersion: 1.1,
		};
		const before = schedules().length;
		const run = await runThroughWebhook(client, 'e2e scheduled add by fields', [node]);
		expect(run.execution.status).toBe('success');
		const stored = schedules().slice(before);
		expect(stored).toHaveLength(1);
		expect(stored[0].payload.query_params).toEqual({
			url: 'https://www.example.com/biz/e2e-v11',
			from_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
			blocks: 7,
			callback: HOOK,
		});
	});

	it('refuses place_ID in a bulk body, naming it and suggesting place_id; nothing is sent', async () => {
		const run = await runThroughWebhook(client, 'e2e bulk body place_ID', [
			scheduler({
				service: 'rsapi',
				endpoint: 'add_bulk',
				bulkBody: JSON.stringify([
					{ url: 'https://www.example.com/biz/one', callback: HOOK },
					{ place_ID: 'ChIJN1t_tDeuEmsRUsoyG83frY4', callback: HOOK },
				]),
			}),
		]);
		expect(run.execution.status).toBe('error');
		expect(run.run('Scraping Scheduler').error?.message).toBe(
			'Profiles (JSON List) element 2 "place_ID" is not a profile field: did you mean "place_id"? Field names are case-sensitive (item 0)',
		);
		expect(schedulingPosts()).toHaveLength(0);
		expect(schedules()).toHaveLength(0);
	});

	it('refuses an rsapi schedule without a callback, saying why; nothing is sent', async () => {
		const run = await runThroughWebhook(client, 'e2e schedule without callback', [
			scheduler({
				service: 'rsapi',
				endpoint: 'add',
				queryParameters: {
					parameter: [{ name: 'url', value: 'https://www.example.com/biz/no-callback' }],
				},
			}),
		]);
		expect(run.execution.status).toBe('error');
		expect(run.run('Scraping Scheduler').error?.message).toBe(
			'Query Parameters "callback" is required: the service runs schedules of the review scraper and review index APIs only with a callback, the address that receives the results of every run (item 0)',
		);
		expect(schedulingPosts()).toHaveLength(0);
	});
});

describe('Social Scraper', () => {
	it('sends a 300-character external identifier (the 255 limit is the review API’s)', async () => {
		const externalIdentifier = `e2e-${'x'.repeat(296)}`;
		const run = await runThroughWebhook(client, 'e2e long external identifier', [
			packageNode(
				'socialScraper',
				'Social Scraper',
				{
					resource: 'socialPost',
					operation: 'scrape',
					url: 'https://social.example.com/someone/posts/300',
					callbackUrl: HOOK,
					additionalFields: { externalIdentifier },
				},
				{ scrapingApi: credentials.scrapingApi },
			),
		]);
		expect(run.execution.status).toBe('success');
		expect(run.output('Social Scraper')[0]).toEqual(
			expect.objectContaining({ status: 'created', request_id: expect.any(String) }),
		);
		const [sent] = simulator.requests().filter((r) => r.api === 'social' && r.method === 'POST');
		expect((sent.body as { external_identifier: string }).external_identifier).toBe(
			externalIdentifier,
		);
		expect(simulator.counts().scrapes).toBe(1);
	});
});

describe('Review Scraper → Add Many', () => {
	it('stopping on one refused profile of 5 (no Continue On Fail) shows the 4 queued job ids', async () => {
		const profiles = Array.from({ length: 5 }, (_, i) => ({
			url: `https://www.example.com/biz/e2e-partial-${i}`,
			// Passes the node's check, not the service's URL parser: refused inside the bulk answer.
			...(i === 3 ? { callback: 'https://bad host.example.com' } : { callback: HOOK }),
		}));
		const run = await runThroughWebhook(
			client,
			'e2e add many partial refusal',
			[
				{
					...packageNode(
						'reviewScraper',
						'Review Scraper',
						{
							resource: 'profile',
							operation: 'addMany',
							inputMode: 'listField',
							listField: 'body.p',
						},
						{ reviewScraperApi: credentials.reviewScraperApi },
					),
					typeVersion: 1.1,
				},
			],
			{ p: profiles },
		);
		expect(run.execution.status).toBe('error');
		const error = run.run('Review Scraper').error;
		expect(error?.message).toMatch(/^The service refused the profile of profile 3 of item 0/);
		const jobs = [...simulator.state.reviewJobs.values()];
		expect(jobs).toHaveLength(4);
		expect(error?.description).toMatch(/^1 of 5 profiles were refused .* The other 4 were accepted/);
		[0, 1, 2, 4].forEach((position, i) => {
			expect(error?.description).toContain(
				`profile ${position} of item 0: job_id ${jobs[i].job_id} (url https://www.example.com/biz/e2e-partial-${position})`,
			);
		});
	});
});

describe('Scheduled Scrape Trigger', () => {
	it('re-activated after its schedule was deleted on the service, which answers 400: a new schedule', async () => {
		const trigger = packageNode(
			'scheduledScrapeTrigger',
			'Scheduled Scrape Trigger',
			{
				collect: 'profile',
				frequency: 'weekly',
				url: 'https://www.example.com/biz/e2e-gone',
			},
			{ scrapingApi: credentials.scrapingApi },
		);
		const id = await activateChain(client, 'e2e scheduled scrape gone with 400', [trigger]);
		activated.add(id);
		const [first] = await waitForSchedules((s) => s.length === 1);
		// Deleted on the service side; from now on the service answers 400 for that id.
		simulator.state.schedules.delete(first.schedule_id);
		simulator.configure({ missingSchedule: 400 });
		// The watcher's reads (GET) aside: what deactivation and activation did with the old id.
		const answersFor = (scheduleId: number) =>
			simulator
				.requests()
				.filter((r) => r.api === 'scheduling' && r.path === `/schedules/${scheduleId}`)
				.filter((r) => r.method !== 'GET')
				.map((r) => [r.method, r.responseStatus]);

		await client.deactivate(id);
		activated.delete(id);
		await waitFor(() => answersFor(first.schedule_id).length > 0);
		await client.activate(id);
		activated.add(id);
		const [second] = await waitForSchedules((s) => s.length === 1);
		expect(second.schedule_id).not.toBe(first.schedule_id);
		expect(second.disabled).toBe(false);
		expect(answersFor(first.schedule_id)).toEqual([['DELETE', 400]]);
		expect((await client.getWorkflow(id)).active).toBe(true);
		// In queue mode the schedule's deletion can land after deactivate() answers: wait for it here,
		// or it would reach the next test's request log.
		await client.deactivate(id);
		activated.delete(id);
		await waitFor(() => simulator.state.schedules.size === 0);
	});
});

describe('Scraping API credential test', () => {
	it('is OK with only the E-Commerce Search URL filled, and checks the key there', async () => {
		const data = {
			apiKey: simulator.config.apiKey,
			ecommerceUrl: simulator.urls.ecommerceUrl,
			requestsPerSecond: 10,
		};
		expect(await client.testCredential('scrapingApi', data)).toEqual({
			status: 'OK',
			message: 'Connection successful (E-Commerce Search URL)',
		});
		const wrong = await client.testCredential('scrapingApi', { ...data, apiKey: 'wrong-e2e-key' });
		expect(wrong).toEqual({
			status: 'Error',
			message: 'The API key was refused: check the key (E-Commerce Search URL answered HTTP 401)',
		});
		expect(simulator.requests().map((r) => [r.api, r.method, r.path])).toEqual([
			['ecommerce', 'GET', '/search'],
			['ecommerce', 'GET', '/search'],
		]);
		expect(simulator.counts().ecommerceSearches).toBe(0);
	});
});

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

async function waitForSchedules(
	check: (current: ScheduleBody[]) => boolean,
	timeoutMs = 10_000,
): Promise<ScheduleBody[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const current = schedules();
		if (check(current)) return current;
		if (Date.now() > deadline) {
			throw new Error(
				`schedules not as expected after ${timeoutMs} ms: ${JSON.stringify(current)}`,
			);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
}
