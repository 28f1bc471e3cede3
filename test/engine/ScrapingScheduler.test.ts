import type { IDataObject } from 'n8n-workflow';

import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { listSearchContext, runNode, useSimulator } from './fixtures';

const context = useSimulator();
const TYPE = 'n8n-nodes-review-scraping.scrapingScheduler';

// Version 1 gives the target request raw (pairs or JSON), as workflows saved with it keep doing.
const create = (parameters: IDataObject, extra: IDataObject = {}) => ({
	type: TYPE,
	typeVersion: 1,
	parameters: { resource: 'schedule', operation: 'create', ...parameters },
	...extra,
});

const HOOK = 'https://n8n.example.com/webhook/reviews';

const nightlyAdd = create({
	service: 'rsapi',
	endpoint: 'add',
	frequency: 'daily',
	scheduleName: 'Nightly pizza',
	queryParameters: {
		parameter: [
			{ name: 'url', value: 'https://reviews.example.com/biz/pizza' },
			{ name: 'callback', value: 'https://n8n.example.com/webhook/reviews' },
		],
	},
});

async function createdSchedule(node = nightlyAdd) {
	const run = await runNode(context.sim, node);
	expect(run.status).toBe('success');
	return run.items()[0];
}

describe("Schedule → Create, version 1.1: the target API's own fields", () => {
	const createV11 = (parameters: IDataObject) => ({
		type: TYPE,
		parameters: { resource: 'schedule', operation: 'create', frequency: 'weekly', ...parameters },
	});

	it('refuses a profile without its callback, naming the Callback URL field, before sending', async () => {
		const before = context.sim.state.schedules.size;
		const profile = { service: 'rsapi', endpoint: 'add', url: 'https://reviews.example.com/biz/x' };
		// Left empty, n8n's own check of the required field stops the run.
		await expect(runNode(context.sim, createV11(profile))).rejects.toThrow(
			'Parameter "Callback URL" is required',
		);
		// An expression that gives nothing gets past it and is refused by the node.
		const run = await runNode(context.sim, createV11({ ...profile, callback: '={{ "" }}' }));
		expect(run.status).toBe('error');
		expect(run.error?.message).toMatch(/^Callback URL is required/);
		expect(context.sim.state.schedules.size).toBe(before);
	});
});

describe('Schedule → Create', () => {
	it('creates an rsapi add schedule from key-value pairs and keeps the full endpoint address', async () => {
		const schedule = await createdSchedule();
		expect(schedule).toMatchObject({
			service: 'rsapi',
			frequency: 'daily',
			schedule_name: 'Nightly pizza',
			disabled: false,
			payload: {
				query_params: {
					url: 'https://reviews.example.com/biz/pizza',
					callback: 'https://n8n.example.com/webhook/reviews',
				},
				body: {},
				headers: {},
			},
		});
		expect(schedule.endpoint).toBe(`${context.sim.urls.baseUrl}/api/v2/profiles/add`);
		const [request] = context.sim.requests();
		expect(request).toMatchObject({ api: 'scheduling', method: 'POST', path: '/schedules' });
		expect(request.body).toEqual({
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			schedule_name: 'Nightly pizza',
			query_params: {
				url: 'https://reviews.example.com/biz/pizza',
				callback: 'https://n8n.example.com/webhook/reviews',
			},
		});
	});

	it('stores scheduled add parameters cleaned as Profile → Add cleans them', async () => {
		const schedule = await createdSchedule(
			create({
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				queryParameters: {
					parameter: [
						{ name: 'place_id', value: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
						{ name: 'from_date', value: '={{ "2026-11-23T12:20:31.000+01:00" }}' },
						{ name: 'blocks', value: '10.0' },
						{ name: 'callback', value: HOOK },
					],
				},
			}),
		);
		expect((schedule.payload as IDataObject).query_params).toEqual({
			place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4',
			from_date: '2026-11-23',
			blocks: 10,
			callback: HOOK,
		});
	});

	it('creates an add_bulk schedule whose body is a list, and a riapi schedule from JSON', async () => {
		const bulk = await createdSchedule(
			create({
				service: 'rsapi',
				endpoint: 'add_bulk',
				frequency: 'weekly',
				bulkBody: JSON.stringify([
					{ url: 'https://a.example.com/1', callback: HOOK },
					{ query: 'Pizza', blocks: '5.0', from_date: '2026-11-23T12:20:00Z', callback: HOOK },
				]),
			}),
		);
		expect((bulk.payload as IDataObject).body).toEqual([
			{ url: 'https://a.example.com/1', callback: HOOK },
			{ query: 'Pizza', blocks: 5, from_date: '2026-11-23', callback: HOOK },
		]);
		const index = await createdSchedule(
			create({
				service: 'riapi',
				endpoint: 'profiles',
				frequency: 'monthly',
				parametersInput: 'json',
				queryParametersJson: JSON.stringify({ profile: 'pizza-palace', callback: HOOK }),
				headersJson: '{}',
				bodyJson: '{}',
			}),
		);
		expect(index.endpoint).toBe(`${context.sim.urls.reviewIndexUrl}/profiles`);
	});

	it.each([
		[
			'the token header for rsapi',
			{ headers: { parameter: [{ name: 'Spiderman-Token', value: 'x' }] } },
			'Headers must not contain "Spiderman-Token": the service adds the review scraper token itself (item 0)',
		],
		[
			'neither query parameters nor body',
			{ queryParameters: {} },
			'Query Parameters or Body is required: the schedule needs parameters for the target endpoint (item 0)',
		],
		[
			'a profile without url, query or place_id',
			{ queryParameters: { parameter: [{ name: 'blocks', value: '3' }] } },
			'Query Parameters "url", Query Parameters "query" or Query Parameters "place_id" is required: fill at least one (item 0)',
		],
		[
			'JSON that is not JSON',
			{ parametersInput: 'json', queryParametersJson: '{url:', headersJson: '{}', bodyJson: '{}' },
			'Query Parameters (JSON) is not valid JSON',
		],
	])('refuses %s before sending', async (_case, parameters, message) => {
		const run = await runNode(context.sim, {
			...nightlyAdd,
			parameters: { ...nightlyAdd.parameters, ...parameters },
		});
		expect(run.status).toBe('error');
		expect(run.error?.message).toContain(message);
		expect(context.sim.requests()).toHaveLength(0);
	});

	it('refuses the api_key query parameter for riapi before sending', async () => {
		const run = await runNode(
			context.sim,
			create({
				service: 'riapi',
				endpoint: 'reviews',
				frequency: 'daily',
				queryParameters: {
					parameter: [
						{ name: 'api_key', value: 'k' },
						{ name: 'profile', value: 'p' },
					],
				},
			}),
		);
		expect(run.error?.message).toContain('must not contain "api_key"');
		expect(context.sim.requests()).toHaveLength(0);
	});
});

describe('Schedule → Get, Get Many, Delete', () => {
	it('gets one schedule by ID (resource locator) and lists with filters and limit', async () => {
		const first = await createdSchedule();
		await createdSchedule(create({ ...nightlyAdd.parameters, frequency: 'weekly' }));
		await createdSchedule(
			create({ ...nightlyAdd.parameters, frequency: 'weekly', scheduleName: 'Third' }),
		);

		const got = await runNode(context.sim, {
			type: TYPE,
			parameters: {
				resource: 'schedule',
				operation: 'get',
				scheduleId: { __rl: true, mode: 'id', value: String(first.schedule_id) },
			},
		});
		expect(got.items()).toEqual([first]);

		const weekly = await runNode(context.sim, {
			type: TYPE,
			parameters: {
				resource: 'schedule',
				operation: 'getAll',
				returnAll: true,
				filters: { frequency: 'weekly' },
			},
		});
		expect(weekly.items().map((s) => s.frequency)).toEqual(['weekly', 'weekly']);

		const limited = await runNode(context.sim, {
			type: TYPE,
			parameters: {
				resource: 'schedule',
				operation: 'getAll',
				returnAll: false,
				limit: 1,
				filters: { state: 'enabled' },
			},
		});
		expect(limited.items()).toHaveLength(1);

		const disabled = await runNode(context.sim, {
			type: TYPE,
			parameters: {
				resource: 'schedule',
				operation: 'getAll',
				returnAll: true,
				filters: { state: 'disabled' },
			},
		});
		expect(disabled.items()).toHaveLength(0);
	});

	it('lists schedules for the "From List" picker, filtered by the search text', async () => {
		await createdSchedule();
		await createdSchedule(create({ ...nightlyAdd.parameters, scheduleName: 'Weekend burgers' }));
		const loadOptions = listSearchContext(context.sim, 'Scraping Scheduler', 'scrapingApi');
		const search = new ScrapingScheduler().methods.listSearch.searchSchedules;
		const all = await search.call(loadOptions);
		expect(all.results).toHaveLength(2);
		const burgers = await search.call(loadOptions, 'burger');
		expect(burgers.results).toHaveLength(1);
		expect(burgers.results[0].name).toContain('Weekend burgers');
	});
});
