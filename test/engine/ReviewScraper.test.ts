import type { IDataObject } from 'n8n-workflow';

import { ReviewScraper } from '../../nodes/ReviewScraper/ReviewScraper.node';

import { ReviewScraperApi } from '../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../credentials/ScrapingApi.credentials';
import { testCredential } from './harness';
import {
	API_KEY,
	credentialsFor,
	listSearchContext,
	nodeTypes,
	runNode,
	useSimulator,
} from './fixtures';

const context = useSimulator();
const TYPE = 'n8n-nodes-review-scraping.reviewScraper';

const addProfile = (parameters: IDataObject, extra: IDataObject = {}) => ({
	type: TYPE,
	parameters: { resource: 'profile', operation: 'add', ...parameters },
	...extra,
});

describe('credentials against the simulator', () => {
	it('Review Scraper API: OK with the token, a clear error without it', async () => {
		const { reviewScraperApi } = credentialsFor(context.sim);
		expect(await testCredential(new ReviewScraperApi(), reviewScraperApi)).toMatchObject({
			status: 'OK',
		});
		const wrong = await testCredential(new ReviewScraperApi(), {
			...reviewScraperApi,
			apiToken: 'nope',
		});
		expect(wrong.status).toBe('Error');
		expect(wrong.message).toMatch(/^The API (token|key) was refused/);
		// A refusal by status code, as the review API gives it when it errors with HTTP statuses.
		context.sim.configure({ reviewErrors: 'status' });
		expect(
			await testCredential(new ReviewScraperApi(), { ...reviewScraperApi, apiToken: 'nope' }),
		).toEqual({ status: 'Error', message: 'The API token was refused: check the token' });
	});

	// The Scraping API credential is tested by its nodes' function (testedBy), as n8n does.
	const scrapingTest = (data: Record<string, string>) =>
		testCredential(new ScrapingApi(), data, { nodeTypes: Object.values(nodeTypes) });

	it('Scraping API: OK with the key, a clear error without it', async () => {
		const { scrapingApi } = credentialsFor(context.sim);
		expect(await scrapingTest(scrapingApi)).toMatchObject({ status: 'OK' });
		const wrong = await scrapingTest({ ...scrapingApi, apiKey: 'nope' });
		expect(wrong.status).toBe('Error');
		expect(wrong.message).toMatch(/^The API (token|key) was refused/);
	});

	it('Scraping API: checks whichever hosts are filled, each with the key', async () => {
		const { urls } = context.sim;
		context.sim.clearRequests();
		const ecommerceOnly = await scrapingTest({ apiKey: API_KEY, ecommerceUrl: urls.ecommerceUrl });
		expect(ecommerceOnly).toEqual({
			status: 'OK',
			message: 'Connection successful (E-Commerce Search URL)',
		});
		expect(context.sim.requests().map((r) => [r.api, r.method, r.path])).toEqual([
			['ecommerce', 'GET', '/search'],
		]);
		expect(context.sim.counts().ecommerceSearches).toBe(0);

		const refused = await scrapingTest({ apiKey: 'nope', photoScraperUrl: urls.photoScraperUrl });
		expect(refused).toEqual({
			status: 'Error',
			message: 'The API key was refused: check the key (Photo Scraper URL answered HTTP 401)',
		});
		const both = await scrapingTest({
			apiKey: API_KEY,
			socialScraperUrl: urls.socialScraperUrl,
			videoScraperUrl: 'http://127.0.0.1:9',
		});
		expect(both.status).toBe('Error');
		expect(both.message).toMatch(/^Video Scraper URL could not be reached: .*ECONNREFUSED/);
		expect(await scrapingTest({ apiKey: API_KEY })).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^No API URL is filled: fill the URL of at least one API/),
		});
	});
});

describe('Profile → Add', () => {
	it.each([
		['a timestamp (a date-time field, or typed)', '2026-01-31T00:00:00', '2026-01-31'],
		[
			'an expression giving a DateTime',
			"={{ DateTime.fromISO('2026-01-31T23:30:00') }}",
			'2026-01-31',
		],
		['an expression giving an ISO text', "={{ '2026-01-31T08:00:00.000Z' }}", '2026-01-31'],
	])('sends the day of Reviews Since given by %s as from_date', async (_how, fromDate, sent) => {
		const run = await runNode(
			context.sim,
			addProfile({ url: 'https://reviews.example.com/biz/1', additionalFields: { fromDate } }),
		);
		expect(run.status).toBe('success');
		const [request] = context.sim.requests();
		expect(request.query).toEqual({ url: 'https://reviews.example.com/biz/1', from_date: sent });
	});
});

describe('Profile → Add Many', () => {
	const addMany = (parameters: IDataObject) => ({
		type: TYPE,
		parameters: { resource: 'profile', operation: 'addMany', ...parameters },
	});
	const profiles = (count: number, from = 0) =>
		Array.from({ length: count }, (_, n) => ({
			url: `https://reviews.example.com/biz/${from + n}`,
			external_identifier: `ref-${from + n}`,
			unrelated: 'ignored',
		}));
	const bulkBodies = () =>
		context.sim
			.requests()
			.filter((r) => r.path === '/api/v2/profiles/add_bulk')
			.map((r) => r.body as IDataObject[]);
	/** 250 output items in profile order, item n paired with input item `pairedWith(n)`. */
	const expectJobs = (
		run: Awaited<ReturnType<typeof runNode>>,
		pairedWith: (n: number) => number,
	) => {
		expect(run.status).toBe('success');
		expect(bulkBodies().map((b) => b.length)).toEqual([100, 100, 50]);
		const items = run.pairs();
		expect(items).toHaveLength(250);
		items.forEach((item, n) => {
			expect(item.pairedItem).toEqual({ item: pairedWith(n) });
			expect(item.json).toMatchObject({ success: true, external_identifier: `ref-${n}` });
		});
		return items;
	};

	it('sends 250 items as ⌈250 / 100⌉ bulk requests, one paired output item each', async () => {
		const node = addMany({
			inputMode: 'defineBelow',
			url: '={{ $json.url }}',
			additionalFields: { externalIdentifier: '={{ $json.external_identifier }}' },
			options: { batchSize: 100 },
		});
		const items = expectJobs(await runNode(context.sim, node, profiles(250)), (n) => n);
		expect(new Set(items.map((item) => item.json.job_id)).size).toBe(250);
		expect(context.sim.counts().bulkJobs).toBe(250);
	});

	it('reads a list field: one output item per profile, paired with the item that carried it', async () => {
		const input = [
			{ body: { profiles: profiles(150) } },
			{ body: { profiles: [] } },
			{ body: { profiles: profiles(100, 150) } },
		];
		const node = addMany({ inputMode: 'listField', listField: 'body.profiles' });
		expectJobs(await runNode(context.sim, node, input), (n) => (n < 150 ? 0 : 2));
	});
});

describe('Respond Job', () => {
	it('Get (1.3) picks the job from the list, searched by its shown name, or by ID; a 1.2 text ID still reads', async () => {
		const loadOptions = listSearchContext(context.sim, 'Review Scraper', 'reviewScraperApi');
		const search = new ReviewScraper().methods.listSearch.searchRespondJobs;
		const jobs = (
			await runNode(context.sim, {
				type: TYPE,
				parameters: { resource: 'respondJob', operation: 'getAll', returnAll: true },
			})
		).items();
		const listed = await search.call(loadOptions);
		expect(listed.results.map((option) => option.value)).toEqual(
			jobs.map((job) => String(job.job_id)),
		);
		const [first] = jobs;
		const found = await search.call(loadOptions, String(first.job_id));
		expect(found.results.map((option) => option.value)).toContain(String(first.job_id));
		expect(found.results.length).toBeLessThanOrEqual(listed.results.length);

		for (const [mode, typeVersion, jobId] of [
			['list', 1.3, { __rl: true, mode: 'list', value: String(first.job_id) }],
			['text', 1.2, String(first.job_id)],
		] as const) {
			const one = await runNode(context.sim, {
				type: TYPE,
				typeVersion,
				parameters: { resource: 'respondJob', operation: 'get', jobId },
			});
			expect([mode, one.items()]).toEqual([mode, [first]]);
		}
	});

	it("Get (1.3)'s list shows the reason instead of an empty list: the service's error in HTTP 200, or an answer that is not a list", async () => {
		const search = new ReviewScraper().methods.listSearch.searchRespondJobs;
		const loadOptions = listSearchContext(context.sim, 'Review Scraper', 'reviewScraperApi');
		context.sim.injectFault({
			api: 'review',
			path: '/api/v2/responds/jobs',
			kind: 'success-false',
			times: 1,
		});
		await expect(search.call(loadOptions)).rejects.toMatchObject({ httpCode: expect.any(String) });

		const notAList = {
			...loadOptions,
			helpers: {
				httpRequestWithAuthentication: async () => ({
					statusCode: 200,
					headers: {},
					body: { jobs: [] },
				}),
			},
		} as unknown as typeof loadOptions;
		await expect(search.call(notAList)).rejects.toThrow('The respond job list is not a list');
	});
});
