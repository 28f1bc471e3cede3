import type { IDataObject, IExecuteFunctions, INode, INodePropertyOptions } from 'n8n-workflow';

import * as product from '../../../nodes/EcommerceSearch/actions/product';
import * as listingAudit from '../../../nodes/ReviewScraper/actions/listingAudit';
import * as profile from '../../../nodes/ReviewScraper/actions/profile';
import * as respondJob from '../../../nodes/ReviewScraper/actions/respondJob';
import * as schedule from '../../../nodes/ScrapingScheduler/actions/schedule';
import * as delivery from '../../../nodes/ScrapingDelivery/actions/delivery';
import * as photoPost from '../../../nodes/SocialScraper/actions/photoPost';
import * as socialPost from '../../../nodes/SocialScraper/actions/socialPost';
import * as videoRequest from '../../../nodes/SocialScraper/actions/videoRequest';
import type { ItemOperation } from '../../../nodes/shared/outgoing/router';
import { testNode } from '../helpers';
import { packageNodes } from '../nodeClasses';

/**
 * Each operation's request for a few parameter sets, built by `prepare()` alone: no engine, no
 * HTTP. A new endpoint gets its rows here first. Parameters not given take the operation's own
 * fallback, as an empty field would.
 */
function prepared(
	operation: ItemOperation,
	parameters: IDataObject,
	resumeUrl?: string,
	node: INode = testNode,
) {
	// Waiting as a user turns it on: the operation's own wrapper claims n8n's resume URL.
	const given: IDataObject = resumeUrl ? { ...parameters, waitForCompletion: true } : parameters;
	const customData = new Map<string, string>();
	const context = {
		getNode: () => node,
		getInputData: () => [{ json: {} }],
		getNodeParameter: (
			name: string,
			_itemIndex: number,
			fallback?: unknown,
			options?: { extractValue?: boolean },
		) => {
			const value = given[name];
			if (value === undefined) return fallback;
			if (options?.extractValue && typeof value === 'object' && value && 'value' in value) {
				return (value as IDataObject).value;
			}
			return value;
		},
		// n8n's resume URL; the node adds its ID as the path suffix.
		evaluateExpression: () => resumeUrl?.replace(`/${node.id}?`, '?'),
		getWorkflowDataProxy: () => ({ $runIndex: 0 }),
		customData: {
			set: (key: string, value: string) => customData.set(key, value),
			get: (key: string) => customData.get(key),
		},
	} as unknown as IExecuteFunctions;
	const prepared = operation.prepare.call(context, 0);
	if (!('request' in prepared)) throw new Error('This operation sends nothing for an item');
	return prepared.request;
}

/**
 * Operations that ask the service nothing: `prepare()` gives the item's output, and each has its
 * own file of tests (Scraping Delivery: read.operation.test.ts).
 */
const sendingNothing: Array<[string, ItemOperation]> = [
	['Scraping Delivery, Delivery → Read', delivery.operations.read],
];

const RESUME = `https://n8n.example.com/webhook-waiting/7/${testNode.id}?signature=abc`;
const CALLBACK = 'https://n8n.example.com/webhook/results';

type Row = [string, ItemOperation, IDataObject, string | undefined, IDataObject];

const rows: Row[] = [
	[
		'Review Scraper, Profile → Add',
		profile.operations.add,
		{
			url: 'https://reviews.example.com/biz/1',
			callback: CALLBACK,
			additionalFields: { blocks: 5, diff: '41' },
		},
		undefined,
		{
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			qs: { url: 'https://reviews.example.com/biz/1', callback: CALLBACK, blocks: 5, diff: 41 },
		},
	],
	[
		'Review Scraper, Profile → Add, waiting: the resume address replaces the callback',
		profile.operations.add,
		{ placeId: 'ChIJ-1', callback: CALLBACK, additionalFields: { externalIdentifier: 'crm-7' } },
		RESUME,
		{
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			qs: { place_id: 'ChIJ-1', callback: RESUME, external_identifier: 'crm-7' },
		},
	],
	[
		'Review Scraper, Profile → Add, a search query and a date',
		profile.operations.add,
		{ query: 'Pizza Palace Berlin', additionalFields: { fromDate: '2026-01-31' } },
		undefined,
		{
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			qs: { query: 'Pizza Palace Berlin', from_date: '2026-01-31' },
		},
	],
	[
		'Review Scraper, Respond Job → Get',
		respondJob.operations.get,
		{ jobId: ' 10001 ' },
		undefined,
		{ api: 'review', method: 'GET', path: '/api/v2/responds/jobs/10001' },
	],
	[
		'Review Scraper, Respond Job → Get Many',
		respondJob.operations.getAll,
		{ returnAll: true },
		undefined,
		{ api: 'review', method: 'GET', path: '/api/v2/responds/jobs' },
	],
	[
		'Review Scraper, Listing Audit → Get',
		listingAudit.operations.get,
		{ jobId: 42 },
		undefined,
		{ api: 'review', method: 'GET', path: '/api/v2/local_naps/local_nap', qs: { job_id: 42 } },
	],
	[
		'E-Commerce Search, Product → Search by keyword',
		product.operations.search,
		{
			keyword: 'headphones',
			sources: ['amazon'],
			otherSources: 'etsy, amazon',
			callbackUrl: CALLBACK,
			additionalFields: { perPage: 50, limit: 120 },
		},
		undefined,
		{
			api: 'ecommerce',
			method: 'POST',
			path: '/search',
			body: {
				callback: CALLBACK,
				keyword: 'headphones',
				source: ['amazon', 'etsy'],
				per_page: 50,
				limit: 120,
			},
		},
	],
	[
		'E-Commerce Search, Product → Search by page URL, waiting',
		product.operations.search,
		{ searchUrl: 'https://www.amazon.com/s?k=tv', additionalFields: { page: 2 } },
		RESUME,
		{
			api: 'ecommerce',
			method: 'POST',
			path: '/search',
			body: { callback: RESUME, url: 'https://www.amazon.com/s?k=tv', page: 2 },
		},
	],
	[
		'Social Scraper, Photo Post → Search',
		photoPost.operations.search,
		{
			keyword: '#sunset',
			callbackUrl: CALLBACK,
			additionalFields: { externalIdentifier: 'x-1' },
		},
		undefined,
		{
			api: 'photo',
			method: 'POST',
			path: '/v1/search',
			body: { callback_url: CALLBACK, keyword: '#sunset', external_identifier: 'x-1' },
		},
	],
	[
		'Social Scraper, Photo Post → Search, waiting',
		photoPost.operations.search,
		{ keyword: '#sunset', callbackUrl: CALLBACK },
		RESUME,
		{
			api: 'photo',
			method: 'POST',
			path: '/v1/search',
			body: { callback_url: RESUME, keyword: '#sunset' },
		},
	],
	[
		'Social Scraper, Photo Post → Get Results: the status first',
		photoPost.operations.getResults,
		{ requestId: 'req 1/a', returnAll: true },
		undefined,
		{ api: 'photo', method: 'GET', path: '/v1/requests/req%201%2Fa' },
	],
	[
		'Social Scraper, Photo Post → Get Status',
		photoPost.operations.getStatus,
		{ requestId: 'req-1' },
		undefined,
		{ api: 'photo', method: 'GET', path: '/v1/requests/req-1' },
	],
	[
		'Social Scraper, Social Post → Scrape',
		socialPost.operations.scrape,
		{
			url: 'https://social.example.com/a/posts/1',
			callbackUrl: CALLBACK,
			additionalFields: { getComments: true },
		},
		undefined,
		{
			api: 'social',
			method: 'POST',
			path: '/v1/scrape',
			body: {
				callback_url: CALLBACK,
				url: 'https://social.example.com/a/posts/1',
				get_comments: true,
			},
		},
	],
	[
		'Social Scraper, Social Post → Get Results',
		socialPost.operations.getResults,
		{ requestId: 'req-2' },
		undefined,
		{ api: 'social', method: 'GET', path: '/v1/scrape/req-2' },
	],
	[
		'Social Scraper, Video Request → Get Status',
		videoRequest.operations.getStatus,
		{ requestId: 'vid-3' },
		undefined,
		{ api: 'video', method: 'GET', path: '/v1/requests/vid-3' },
	],
	[
		'Scraping Scheduler, Schedule → Create, review scraper add with fields',
		schedule.operations.create,
		{
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'weekly',
			scheduleName: 'Weekly',
			queryParameters: {
				parameter: [
					{ name: 'url', value: 'https://reviews.example.com/biz/1' },
					{ name: 'callback', value: CALLBACK },
					{ name: 'blocks', value: '20' },
				],
			},
		},
		undefined,
		{
			api: 'scheduling',
			method: 'POST',
			path: '/schedules',
			body: {
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'weekly',
				schedule_name: 'Weekly',
				query_params: {
					url: 'https://reviews.example.com/biz/1',
					callback: CALLBACK,
					blocks: 20,
				},
			},
		},
	],
	[
		'Scraping Scheduler, Schedule → Create, review index with JSON',
		schedule.operations.create,
		{
			service: 'riapi',
			endpoint: 'reviews',
			frequency: 'daily',
			parametersInput: 'json',
			queryParametersJson: JSON.stringify({ place: 'p-1', callback: CALLBACK }),
		},
		undefined,
		{
			api: 'scheduling',
			method: 'POST',
			path: '/schedules',
			body: {
				service: 'riapi',
				endpoint: 'reviews',
				frequency: 'daily',
				query_params: { place: 'p-1', callback: CALLBACK },
			},
		},
	],
	[
		'Scraping Scheduler, Schedule → Create, add_bulk',
		schedule.operations.create,
		{
			service: 'rsapi',
			endpoint: 'add_bulk',
			frequency: 'monthly',
			bulkBody: JSON.stringify([{ query: 'Cafe', callback: CALLBACK, blocks: 3 }]),
		},
		undefined,
		{
			api: 'scheduling',
			method: 'POST',
			path: '/schedules',
			body: {
				service: 'rsapi',
				endpoint: 'add_bulk',
				frequency: 'monthly',
				body: [{ query: 'Cafe', callback: CALLBACK, blocks: 3 }],
			},
		},
	],
	[
		'Scraping Scheduler 1.1, Schedule → Create, review profile by its fields',
		schedule.operations.create,
		{
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			parametersInput: 'fields',
			placeId: 'ChIJ-5',
			callback: CALLBACK,
			additionalFields: { blocks: 10, externalIdentifier: 'daily-5' },
		},
		undefined,
		{
			api: 'scheduling',
			method: 'POST',
			path: '/schedules',
			body: {
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				query_params: {
					place_id: 'ChIJ-5',
					blocks: 10,
					external_identifier: 'daily-5',
					callback: CALLBACK,
				},
			},
		},
	],
	[
		'Scraping Scheduler 1.1, Schedule → Create, a list of profiles: the field is the callback of those without one',
		schedule.operations.create,
		{
			service: 'rsapi',
			endpoint: 'add_bulk',
			frequency: 'weekly',
			parametersInput: 'fields',
			callback: CALLBACK,
			bulkBody: [{ url: 'https://reviews.example.com/biz/1' }, { query: 'Bar', callback: RESUME }],
		},
		undefined,
		{
			api: 'scheduling',
			method: 'POST',
			path: '/schedules',
			body: {
				service: 'rsapi',
				endpoint: 'add_bulk',
				frequency: 'weekly',
				body: [
					{ url: 'https://reviews.example.com/biz/1', callback: CALLBACK },
					{ query: 'Bar', callback: RESUME },
				],
			},
		},
	],
	[
		'Scraping Scheduler 1.1, Schedule → Create, review index: its parameters and the callback',
		schedule.operations.create,
		{
			service: 'riapi',
			endpoint: 'profiles',
			frequency: 'monthly',
			parametersInput: 'fields',
			callback: CALLBACK,
			queryParameters: { parameter: [{ name: 'name', value: 'Cafe' }] },
		},
		undefined,
		{
			api: 'scheduling',
			method: 'POST',
			path: '/schedules',
			body: {
				service: 'riapi',
				endpoint: 'profiles',
				frequency: 'monthly',
				query_params: { name: 'Cafe', callback: CALLBACK },
			},
		},
	],
	[
		'Scraping Scheduler, Schedule → Get, by ID',
		schedule.operations.get,
		{ scheduleId: { mode: 'id', value: ' 12 ' } },
		undefined,
		{ api: 'scheduling', method: 'GET', path: '/schedules/12' },
	],
	[
		'Scraping Scheduler, Schedule → Get Many',
		schedule.operations.getAll,
		{ returnAll: false, limit: 3 },
		undefined,
		{ api: 'scheduling', method: 'GET', path: '/schedules' },
	],
	[
		'Scraping Scheduler, Schedule → Delete, from the list',
		schedule.operations.deleteSchedule,
		{ scheduleId: { mode: 'list', value: '9' } },
		undefined,
		{ api: 'scheduling', method: 'DELETE', path: '/schedules/9' },
	],
];

describe('prepare(): the request of every operation', () => {
	it.each(rows)('%s', (_name, operation, parameters, resumeUrl, request) => {
		expect(prepared(operation, parameters, resumeUrl)).toEqual(request);
	});

	it('E-Commerce Search 1.2: the limit from the top-level Return All / Limit', () => {
		const v12 = { ...testNode, typeVersion: 1.2 };
		const search = { keyword: 'tv', callbackUrl: CALLBACK, additionalFields: { limit: 3 } };
		expect(
			prepared(product.operations.search, { ...search, limit: 7 }, undefined, v12).body,
		).toEqual({
			callback: CALLBACK,
			keyword: 'tv',
			limit: 7,
		});
		expect(
			prepared(product.operations.search, { ...search, returnAll: true }, undefined, v12).body,
		).not.toHaveProperty('limit');
	});

	it('has rows for every item operation of every node', () => {
		const resources: Record<string, { operations: Record<string, unknown> }> = {
			profile,
			respondJob,
			listingAudit,
			product,
			photoPost,
			socialPost,
			videoRequest,
			schedule,
			delivery,
		};
		// What the editor offers, read from the nodes' descriptions: the resources above are all of
		// them, and each resource's operations are exactly its Operation parameter's options.
		const offered = packageNodes.flatMap(({ node }) => {
			const { properties } = node.description;
			const resource = properties.find(({ name }) => name === 'resource');
			return (resource?.options ?? []).map((option) => {
				const value = String((option as INodePropertyOptions).value);
				const operation = properties.find(
					({ name, displayOptions }) =>
						name === 'operation' && displayOptions?.show?.resource?.includes(value),
				);
				const names = (operation?.options ?? []).map((option) =>
					String((option as INodePropertyOptions).value),
				);
				return [value, names.sort()] as const;
			});
		});
		expect(Object.fromEntries(offered)).toEqual(
			Object.fromEntries(
				Object.entries(resources).map(([name, { operations }]) => [
					name,
					Object.keys(operations).sort(),
				]),
			),
		);
		const itemOperations = Object.entries(resources).flatMap(([resource, { operations }]) =>
			Object.entries(operations)
				.filter(([, value]) => typeof value === 'object' && value !== null && 'prepare' in value)
				.map(([name, value]) => ({ name: `${resource}.${name}`, operation: value })),
		);
		const withRows = new Set<unknown>([
			...rows.map(([, operation]) => operation),
			...sendingNothing.map(([, operation]) => operation),
		]);
		// Add Many, the one batch operation, has no prepare(): its requests are checked in addMany.test.ts.
		expect(itemOperations.length).toBeGreaterThan(0);
		expect(
			itemOperations
				.filter(({ operation }) => !withRows.has(operation as ItemOperation))
				.map(({ name }) => name),
		).toEqual([]);
	});

	it('refuses a bad item before building anything, naming the field', () => {
		expect(() => prepared(profile.operations.add, { callback: CALLBACK })).toThrow(
			'Profile URL, Search Query or Place ID is required',
		);
		expect(() =>
			prepared(product.operations.search, { keyword: 'tv', searchUrl: 'https://x.example/s' }),
		).toThrow(/Keyword and Search Page URL/);
		expect(() =>
			prepared(schedule.operations.create, {
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				parametersInput: 'fields',
				url: 'https://reviews.example.com/biz/1',
			}),
		).toThrow('Callback URL is required');
		expect(() =>
			prepared(schedule.operations.create, {
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				parametersInput: 'fields',
				callback: CALLBACK,
				additionalFields: { blocks: 0 },
				url: 'https://reviews.example.com/biz/1',
			}),
		).toThrow(/Latest Reviews Count/);
		expect(() =>
			prepared(schedule.operations.get, { scheduleId: { mode: 'id', value: '0' } }),
		).toThrow(/Schedule/);
	});
});
