import type { IDataObject } from 'n8n-workflow';

import { runNode, useSimulator } from './fixtures';

const context = useSimulator();
const TYPES = {
	review: 'n8n-nodes-review-scraping.reviewScraper',
	scheduler: 'n8n-nodes-review-scraping.scrapingScheduler',
	ecommerce: 'n8n-nodes-review-scraping.ecommerceSearch',
	social: 'n8n-nodes-review-scraping.socialScraper',
};

const profileAdd = (extra: IDataObject) => ({
	type: TYPES.review,
	parameters: {
		resource: 'profile',
		operation: 'add',
		url: 'https://reviews.example.com/b/1',
		...extra,
	},
});
const profileAddMany = (extra: IDataObject) => ({
	type: TYPES.review,
	parameters: {
		resource: 'profile',
		operation: 'addMany',
		inputMode: 'defineBelow',
		url: '={{ $json.url }}',
		...extra,
	},
});
const profileAutoMap = (extra: IDataObject) => ({
	type: TYPES.review,
	parameters: { resource: 'profile', operation: 'addMany', inputMode: 'autoMap', ...extra },
});
const profileFromList = (extra: IDataObject) => ({
	type: TYPES.review,
	parameters: {
		resource: 'profile',
		operation: 'addMany',
		inputMode: 'listField',
		listField: 'profiles',
		...extra,
	},
});
const schedule = (extra: IDataObject) => ({
	type: TYPES.scheduler,
	// Version 1: the raw request, whose rules these rows check.
	typeVersion: 1,
	parameters: {
		resource: 'schedule',
		operation: 'create',
		service: 'rsapi',
		endpoint: 'add',
		frequency: 'daily',
		queryParameters: {
			parameter: [
				{ name: 'url', value: 'https://reviews.example.com/b/1' },
				{ name: 'callback', value: CALLBACK },
			],
		},
		...extra,
	},
});
// Version 1.1: Limit in Additional Fields and Photo Post results by page (1.2 rows below).
const productSearch = (extra: IDataObject, typeVersion = 1.1) => ({
	type: TYPES.ecommerce,
	typeVersion,
	parameters: {
		resource: 'product',
		operation: 'search',
		keyword: 'headphones',
		callbackUrl: 'https://n8n.example.com/webhook/p',
		...extra,
	},
});
const social = (resource: string, operation: string, extra: IDataObject, typeVersion = 1.1) => ({
	type: TYPES.social,
	typeVersion,
	parameters: { resource, operation, ...extra },
});
const photoSearch = (extra: IDataObject) =>
	social('photoPost', 'search', {
		keyword: '#pizza',
		callbackUrl: 'https://n8n.example.com/webhook/ph',
		...extra,
	});
const scrape = (extra: IDataObject) =>
	social('socialPost', 'scrape', {
		url: 'https://social.example.com/p/1',
		callbackUrl: 'https://n8n.example.com/webhook/s',
		...extra,
	});
const locator = (value: string) => ({ __rl: true, mode: 'id', value });
const long = 'x'.repeat(256);
const CALLBACK = 'https://n8n.example.com/webhook/reviews';
const range = (...conditions: Array<[string, unknown]>) => ({
	condition: conditions.map(([operator, value]) => ({ operator, value })),
});

// [case, node, input items, field named in the error, item named in the error]
type Case = [
	string,
	{ type: string; typeVersion?: number; parameters: IDataObject },
	IDataObject[],
	RegExp,
	number,
];

const cases: Case[] = [
	[
		'profile add: no url, query or place ID',
		profileAdd({ url: '' }),
		[{}],
		/Profile URL, Search Query or Place ID is required/,
		0,
	],
	[
		'profile add: url not http',
		profileAdd({ url: 'ftp://x.example.com' }),
		[{}],
		/^Profile URL must be an http/,
		0,
	],
	[
		'profile add: impossible date',
		profileAdd({ additionalFields: { fromDate: '2026-02-30' } }),
		[{}],
		/^Reviews Since must be a date/,
		0,
	],
	[
		'profile add: day-first date',
		profileAdd({ additionalFields: { fromDate: '31/01/2026' } }),
		[{}],
		/^Reviews Since must be a date/,
		0,
	],
	[
		'profile add: date in words',
		profileAdd({ additionalFields: { fromDate: 'tomorrow' } }),
		[{}],
		/^Reviews Since must be a date/,
		0,
	],
	[
		'profile add: external identifier of 256',
		profileAdd({ additionalFields: { externalIdentifier: long } }),
		[{}],
		/^External Identifier must be at most 255/,
		0,
	],
	[
		'profile add: blocks as words from an expression',
		profileAdd({ additionalFields: { blocks: '={{ $json.n }}' } }),
		[{ n: 'ten' }],
		/^Latest Reviews Count must be a whole number/,
		0,
	],
	[
		'profile add: fractional blocks',
		profileAdd({ additionalFields: { blocks: 2.5 } }),
		[{}],
		/^Latest Reviews Count must be a whole number/,
		0,
	],
	[
		'profile add: zero blocks',
		profileAdd({ additionalFields: { blocks: 0 } }),
		[{}],
		/^Latest Reviews Count must be at least 1/,
		0,
	],
	[
		'profile add: negative diff',
		profileAdd({ additionalFields: { diff: -3 } }),
		[{}],
		/^Only Reviews Since Job must be at least 1/,
		0,
	],
	[
		'profile add: callback not a URL',
		profileAdd({ callback: 'my-server/hook' }),
		[{}],
		/^Callback URL must be an http/,
		0,
	],
	[
		'profile add: query that is an object',
		profileAdd({ url: '', query: '={{ $json.q }}' }),
		[{ q: { a: 1 } }],
		/^Search Query must be text, got an object/,
		0,
	],
	[
		'profile add: bad url from the item',
		profileAdd({ url: '={{ $json.url }}' }),
		[{ url: 'nope' }, { url: 'https://a.example.com' }],
		/^Profile URL must be an http/,
		0,
	],
	[
		'add many: third element bad url',
		profileAddMany({}),
		[
			{ url: 'https://a.example.com/1' },
			{ url: 'https://a.example.com/2' },
			{ url: 'a.example.com/3' },
		],
		/^Profile URL must be an http/,
		2,
	],
	[
		'add many: long external identifier',
		profileAddMany({ additionalFields: { externalIdentifier: '={{ $json.ref }}' } }),
		[
			{ url: 'https://a.example.com/1', ref: 'ok' },
			{ url: 'https://a.example.com/2', ref: long },
		],
		/^External Identifier must be at most 255/,
		1,
	],
	[
		'add many: empty element',
		profileAddMany({}),
		[{ url: '' }],
		/Profile URL, Search Query or Place ID is required/,
		0,
	],
	[
		'add many, map automatically: an item without url, query or place_id',
		profileAutoMap({}),
		[{ url: 'https://a.example.com/1' }, { name: 'no identifier', id: 7 }],
		/^Field "url" of the input item, Field "query" of the input item or Field "place_id" of the input item is required/,
		1,
	],
	[
		'add many, map automatically: bad url in the item',
		profileAutoMap({}),
		[{ url: 'https://a.example.com/1' }, { url: 'https://a.example.com/2' }, { url: 'ftp:x' }],
		/^Field "url" of the input item must be an http/,
		2,
	],
	[
		'add many, map automatically: blocks that is not a number',
		profileAutoMap({}),
		[{ place_id: 'p-1', blocks: 'many' }],
		/^Field "blocks" of the input item must be a whole number/,
		0,
	],
	[
		'add many, map automatically: bad default callback',
		profileAutoMap({ callback: 'not-a-url' }),
		[{ url: 'https://a.example.com/1' }],
		/^Callback URL must be an http/,
		0,
	],
	[
		'add many, map automatically: place_ID is not dropped as an unrelated field',
		profileAutoMap({}),
		[{ url: 'https://a.example.com/1', sheet_row: 2 }, { place_ID: 'ChIJN1t_tDeuEmsRUsoyG83frY4' }],
		/^Field "place_ID" of the input item is not a profile field: did you mean "place_id"\?/,
		1,
	],
	[
		'add many, list field: URL spelled in capitals',
		profileFromList({}),
		[{ profiles: [{ url: 'https://a.example.com/1' }, { URL: 'https://a.example.com/2' }] }],
		/^Field "profiles\[1\].URL" is not a profile field: did you mean "url"\?/,
		0,
	],
	[
		'add many, list field: the field is not a list',
		profileFromList({}),
		[{ profiles: [{ url: 'https://a.example.com/1' }] }, { profiles: { url: 'x' } }],
		/^List Field "profiles" must name a list of profiles in the input item, got an object/,
		1,
	],
	[
		'add many, list field: the field is missing',
		profileFromList({ listField: 'body.profiles' }),
		[{ body: {} }],
		/^List Field "body.profiles" must name a list of profiles in the input item, got nothing/,
		0,
	],
	[
		'add many, list field: an element that is not an object',
		profileFromList({}),
		[{ profiles: [{ url: 'https://a.example.com/1' }, 'https://a.example.com/2'] }],
		/^Element 1 of "profiles" must be an object with url, query or place_id/,
		0,
	],
	[
		'add many, list field: an element without url, query or place_id',
		profileFromList({}),
		[{ profiles: [] }, { profiles: [{ url: 'https://a.example.com/1' }, { diff: 3 }] }],
		/^Field "profiles\[1\].url", Field "profiles\[1\].query" or Field "profiles\[1\].place_id" is required/,
		1,
	],
	[
		'add many, list field: a long external identifier',
		profileFromList({}),
		[{ profiles: [{ query: 'pizza', external_identifier: long }] }],
		/^Field "profiles\[0\].external_identifier" must be at most 255 characters/,
		0,
	],
	[
		'respond job get (1.2, a text ID): zero id',
		{
			type: TYPES.review,
			typeVersion: 1.2,
			parameters: { resource: 'respondJob', operation: 'get', jobId: 0 },
		},
		[{}],
		/^Respond Job ID must be at least 1/,
		0,
	],
	[
		'respond job get (1.3, from the list or by ID): zero id',
		{
			type: TYPES.review,
			parameters: {
				resource: 'respondJob',
				operation: 'get',
				jobId: { __rl: true, mode: 'id', value: '0' },
			},
		},
		[{}],
		/^Respond Job must be at least 1/,
		0,
	],
	[
		'respond job get (1.3): an expression giving words',
		{
			type: TYPES.review,
			parameters: {
				resource: 'respondJob',
				operation: 'get',
				jobId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
		},
		[{ id: 'abc' }],
		/^Respond Job must be a whole number, got string "abc" \(item 0\)/,
		0,
	],
	[
		'respond job get (1.2): id as words',
		{
			type: TYPES.review,
			typeVersion: 1.2,
			parameters: { resource: 'respondJob', operation: 'get', jobId: '={{ $json.id }}' },
		},
		[{ id: 'abc' }],
		/^Respond Job ID must be a whole number/,
		0,
	],
	[
		'respond job get many: limit 0',
		{
			type: TYPES.review,
			parameters: { resource: 'respondJob', operation: 'getAll', returnAll: false, limit: 0 },
		},
		[{}],
		/^Limit must be at least 1/,
		0,
	],
	[
		'listing audit: negative job',
		{ type: TYPES.review, parameters: { resource: 'listingAudit', operation: 'get', jobId: -1 } },
		[{}],
		/^Profile Job ID must be at least 1/,
		0,
	],
	[
		'respond job get (1.2): an id typed with a fraction',
		{
			type: TYPES.review,
			typeVersion: 1.2,
			parameters: { resource: 'respondJob', operation: 'get', jobId: '12.5' },
		},
		[{}],
		/^Respond Job ID must be a whole number, got string "12.5" \(item 0\)/,
		0,
	],
	[
		'listing audit: empty job',
		{
			type: TYPES.review,
			parameters: { resource: 'listingAudit', operation: 'get', jobId: '={{ "" }}' },
		},
		[{}],
		/^Profile Job ID is required/,
		0,
	],
	[
		'schedule: unknown service',
		schedule({ service: '={{ "xyz" }}' }),
		[{}],
		/^Service must be one of rsapi, riapi/,
		0,
	],
	[
		'schedule: endpoint of the other service',
		schedule({ endpoint: '={{ "profiles" }}' }),
		[{}],
		/^Endpoint must be one of add, add_bulk/,
		0,
	],
	[
		'schedule: unknown frequency',
		schedule({ frequency: '={{ "hourly" }}' }),
		[{}],
		/^Frequency must be one of/,
		0,
	],
	[
		'schedule: neither query parameters nor body',
		schedule({ queryParameters: {} }),
		[{}],
		/^Query Parameters or Body is required/,
		0,
	],
	[
		'schedule: the service token header',
		schedule({ headers: { parameter: [{ name: 'spiderman-token', value: 't' }] } }),
		[{}],
		/^Headers must not contain "spiderman-token"/,
		0,
	],
	[
		'schedule: the review index api_key',
		schedule({
			service: 'riapi',
			endpoint: 'profiles',
			queryParameters: { parameter: [{ name: 'api_key', value: 'k' }] },
		}),
		[{}],
		/^Query Parameters must not contain "api_key"/,
		0,
	],
	[
		'schedule: query parameters not JSON',
		schedule({ parametersInput: 'json', queryParametersJson: '{url:' }),
		[{}],
		/^Query Parameters \(JSON\) is not valid JSON/,
		0,
	],
	[
		'schedule: body JSON is a list for add',
		schedule({ parametersInput: 'json', queryParametersJson: '{}', bodyJson: '[{}]' }),
		[{}],
		/^Body \(JSON\) must be a JSON object/,
		0,
	],
	[
		'schedule: add_bulk list with a bad element',
		schedule({
			endpoint: 'add_bulk',
			bulkBody: JSON.stringify([
				{ url: 'https://a.example.com', callback: CALLBACK },
				{ blocks: 2, callback: CALLBACK },
			]),
		}),
		[{}],
		/^Profiles \(JSON List\) element 2 "url"/,
		0,
	],
	[
		'schedule: add_bulk profile with place_ID',
		schedule({
			endpoint: 'add_bulk',
			bulkBody: JSON.stringify([
				{ url: 'https://a.example.com', callback: CALLBACK },
				{ place_ID: 'ChIJN1t_tDeuEmsRUsoyG83frY4', callback: CALLBACK },
			]),
		}),
		[{}],
		/^Profiles \(JSON List\) element 2 "place_ID" is not a profile field: did you mean "place_id"\?/,
		0,
	],
	[
		'schedule: add_bulk profile with a key the service does not take',
		schedule({
			endpoint: 'add_bulk',
			bulkBody: JSON.stringify([{ url: 'https://a.example.com', callback: CALLBACK, note: 1 }]),
		}),
		[{}],
		/^Profiles \(JSON List\) element 1 "note" is not a profile field: a profile takes url, query/,
		0,
	],
	[
		'schedule 1.1, review profile by its fields: URL not http, named as the form names it',
		{
			...schedule({ parametersInput: 'fields', url: 'ftp://x.example.com', callback: CALLBACK }),
			typeVersion: 1.1,
		},
		[{}],
		/^Profile URL must be an http/,
		0,
	],
	[
		'schedule 1.1, review profile by its fields: none of URL, query and place ID',
		{ ...schedule({ parametersInput: 'fields', url: '', callback: CALLBACK }), typeVersion: 1.1 },
		[{}],
		/^Profile URL, Search Query or Place ID is required/,
		0,
	],
	[
		'schedule: add_bulk profile without a callback',
		schedule({
			endpoint: 'add_bulk',
			bulkBody: JSON.stringify([
				{ url: 'https://a.example.com', callback: CALLBACK },
				{ url: 'https://b.example.com' },
			]),
		}),
		[{}],
		/^Profiles \(JSON List\) element 2 "callback" is required: the service runs schedules .* only with a callback/,
		0,
	],
	[
		'schedule: add without a callback',
		schedule({
			queryParameters: { parameter: [{ name: 'url', value: 'https://a.example.com' }] },
		}),
		[{}],
		/^Query Parameters "callback" is required: the service runs schedules .* only with a callback/,
		0,
	],
	[
		'schedule: review index request without a callback',
		schedule({
			service: 'riapi',
			endpoint: 'profiles',
			queryParameters: { parameter: [{ name: 'query', value: 'pizza' }] },
		}),
		[{}],
		/^Query Parameters "callback" or Body "callback" is required: the service runs schedules/,
		0,
	],
	[
		'schedule: add with Place_Id spelled in another case',
		schedule({
			queryParameters: {
				parameter: [
					{ name: 'Place_Id', value: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
					{ name: 'callback', value: CALLBACK },
				],
			},
		}),
		[{}],
		/^Query Parameters "Place_Id" is not a profile field: did you mean "place_id"\?/,
		0,
	],
	[
		'schedule: add_bulk body not a list',
		schedule({ endpoint: 'add_bulk', bulkBody: '{"url":"https://a.example.com"}' }),
		[{}],
		/^Profiles \(JSON List\) must be a JSON list/,
		0,
	],
	[
		'schedule: header without a name',
		schedule({ headers: { parameter: [{ name: '', value: 'v' }] } }),
		[{}],
		/^Headers has a pair without a name/,
		0,
	],
	[
		'schedule: malformed from_date for the target',
		schedule({
			queryParameters: {
				parameter: [
					{ name: 'url', value: 'https://a.example.com' },
					{ name: 'from_date', value: '2026/01/01' },
				],
			},
		}),
		[{}],
		/^Query Parameters "from_date" must be a date/,
		0,
	],
	[
		'schedule get: id as words',
		{
			type: TYPES.scheduler,
			parameters: { resource: 'schedule', operation: 'get', scheduleId: locator('={{ "abc" }}') },
		},
		[{}],
		/^Schedule must be a whole number/,
		0,
	],
	[
		'schedule delete: empty id',
		{
			type: TYPES.scheduler,
			parameters: {
				resource: 'schedule',
				operation: 'deleteSchedule',
				scheduleId: locator('={{ "" }}'),
			},
		},
		[{}],
		/^Schedule is required/,
		0,
	],
	[
		'schedule get many: limit 0',
		{
			type: TYPES.scheduler,
			parameters: { resource: 'schedule', operation: 'getAll', returnAll: false, limit: 0 },
		},
		[{}],
		/^Limit must be at least 1/,
		0,
	],
	[
		'product search: both url and keyword',
		productSearch({ searchUrl: 'https://www.amazon.com/s?k=x' }),
		[{}],
		/^Keyword and Search Page URL are both filled/,
		0,
	],
	[
		'product search: neither url nor keyword',
		productSearch({ keyword: '' }),
		[{}],
		/^Keyword or Search Page URL/,
		0,
	],
	[
		'product search: per_page 0',
		productSearch({ additionalFields: { perPage: 0 } }),
		[{}],
		/^Results per Page must be at least 1/,
		0,
	],
	[
		'product search: per_page 501',
		productSearch({ additionalFields: { perPage: 501 } }),
		[{}],
		/^Results per Page must be at most 500/,
		0,
	],
	[
		'product search: page 0',
		productSearch({ additionalFields: { page: 0 } }),
		[{}],
		/^Page must be at least 1/,
		0,
	],
	[
		'product search: limit 0',
		productSearch({ additionalFields: { limit: 0 } }),
		[{}],
		/^Limit must be at least 1/,
		0,
	],
	[
		'product search 1.2: limit 0',
		productSearch({ limit: 0 }, 1.2),
		[{}],
		/^Limit must be at least 1/,
		0,
	],
	[
		'photo results 1.2: limit 0',
		social('photoPost', 'getResults', { requestId: 'r-1', limit: 0 }, 1.2),
		[{}],
		/^Limit must be at least 1/,
		0,
	],
	[
		'product search: no callback',
		productSearch({ callbackUrl: '={{ "" }}' }),
		[{}],
		/^Callback URL/,
		0,
	],
	[
		'product search: callback not a URL',
		productSearch({ callbackUrl: 'hook' }),
		[{}],
		/^Callback URL must be an http/,
		0,
	],
	[
		'product search: unknown range operator',
		productSearch({ filters: { fullPrice: range(['between', 3]) } }),
		[{}],
		/^Full Price/,
		0,
	],
	[
		'product search: eq mixed with others',
		productSearch({ filters: { rating: range(['eq', 4], ['gte', 3]) } }),
		[{}],
		/^Rating/,
		0,
	],
	[
		'product search: range value not a number',
		productSearch({ filters: { reviewCount: range(['gt', '={{ "many" }}']) } }),
		[{}],
		/^Review Count/,
		0,
	],
	[
		'product search: operator twice',
		productSearch({ filters: { fullPrice: range(['lt', 3], ['lt', 4]) } }),
		[{}],
		/^Full Price has "/,
		0,
	],
	[
		'product search: ranking page not a number',
		productSearch({ filters: { rankingPages: 'one, two' } }),
		[{}],
		/^Ranking Pages/,
		0,
	],
	[
		'product search: sources with a URL',
		productSearch({ keyword: '', searchUrl: 'https://www.amazon.com/s?k=x', sources: ['ebay'] }),
		[{}],
		/Sources/,
		0,
	],
	[
		'photo search: empty keyword',
		photoSearch({ keyword: '={{ "" }}' }),
		[{}],
		/^Keyword or Hashtag is required/,
		0,
	],
	[
		'photo search: no callback',
		photoSearch({ callbackUrl: '={{ "" }}' }),
		[{}],
		/^Callback URL/,
		0,
	],
	['social scrape: empty url', scrape({ url: '={{ "" }}' }), [{}], /^Post URL/, 0],
	[
		'social scrape: url not http',
		scrape({ url: 'social.example.com/p/1' }),
		[{}],
		/^Post URL must be an http/,
		0,
	],
	[
		'photo results: empty request id',
		social('photoPost', 'getResults', { requestId: '={{ "" }}' }),
		[{}],
		/^Request ID is required/,
		0,
	],
	[
		'photo results: per_page 0',
		social('photoPost', 'getResults', {
			requestId: 'r-1',
			returnAll: false,
			options: { perPage: 0 },
		}),
		[{}],
		/^Results per Page must be at least 1/,
		0,
	],
	[
		'photo status: empty request id',
		social('photoPost', 'getStatus', { requestId: '={{ "" }}' }),
		[{}],
		/^Request ID is required/,
		0,
	],
	[
		'social results: empty request id',
		social('socialPost', 'getResults', { requestId: '={{ "" }}' }),
		[{}],
		/^Request ID is required/,
		0,
	],
	[
		'video status: empty request id',
		social('videoRequest', 'getStatus', { requestId: '={{ "" }}' }),
		[{}],
		/^Request ID is required/,
		0,
	],
];

describe('bad input is refused before any request, naming the field and the item', () => {
	it('has at least 50 cases', () => {
		expect(cases.length).toBeGreaterThanOrEqual(50);
	});

	it.each(cases)('%s', async (_name, node, items, field, itemIndex) => {
		const run = await runNode(context.sim, node as Parameters<typeof runNode>[1], items);
		expect(run.status).toBe('error');
		const message = String(run.error?.message);
		expect(message).toMatch(field);
		expect(message).toContain(`(item ${itemIndex})`);
		expect((run.error as unknown as { context?: IDataObject }).context?.itemIndex).toBe(itemIndex);
		expect(context.sim.requests()).toHaveLength(0);
	});

	// The field starts empty (not 0), so n8n itself refuses to run the node until it is filled.
	it.each([
		['respondJob', 'Respond Job', undefined],
		['respondJob', 'Respond Job ID', 1.2],
		['listingAudit', 'Profile Job ID', undefined],
	])(
		'%s → Get with %s left at its default (version %s): n8n names the field before anything runs',
		async (resource, label, typeVersion) => {
			const node = { type: TYPES.review, typeVersion, parameters: { resource, operation: 'get' } };
			await expect(runNode(context.sim, node, [{}])).rejects.toThrow(
				`Parameter "${label}" is required`,
			);
			expect(context.sim.requests()).toHaveLength(0);
		},
	);
});
