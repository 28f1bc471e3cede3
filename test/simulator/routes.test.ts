import type { z } from 'zod';

import type { Simulator } from '../../simulator/server';
import {
	BulkResponse,
	EcommerceEnvelope,
	LocalListingAudit,
	PhotoEnvelope,
	PhotoStatusRecord,
	ProfileAck,
	RespondJob,
	RespondJobList,
	ReviewError,
	ReviewIndexAck,
	ScheduleEnvelope,
	SchedulingError,
	SocialEnvelope,
	SocialStatusRecord,
	SubmitAck,
	VideoStatusRecord,
} from '../../simulator/schemas';
import { call, http, type HttpOptions, keyAuth, startSimulator } from './helpers';

let sim: Simulator;
const hook = 'http://127.0.0.1:9/hook';
const schedule = {
	service: 'rsapi',
	endpoint: 'add',
	frequency: 'daily',
	query_params: { url: 'https://g.example/p' },
};

beforeAll(async () => {
	// Callbacks go nowhere in this file; one attempt keeps the delivery log quiet.
	sim = await startSimulator({ callbackRetry: { maxAttempts: 1 } });
});
afterAll(() => sim.stop());

describe('route table: every endpoint answers a body that parses with its schema', () => {
	const ids: Record<string, string | number> = {};
	/** The route with its `:name` replaced by the id created for it. */
	const withId = (route: string) => route.replace(/:(\w+)/, (_, name: string) => String(ids[name]));
	beforeAll(async () => {
		const photo = await call(sim, 'POST photo /v1/search', {
			body: { callback_url: hook, keyword: 'sunset' },
		});
		const social = await call(sim, 'POST social /v1/scrape', {
			body: { callback_url: hook, url: 'https://social.example/posts/1' },
		});
		const created = await call(sim, 'POST scheduling /schedules', { body: schedule });
		ids.photo = photo.body.request_id;
		ids.social = social.body.request_id;
		ids.schedule = created.body.results[0].schedule_id;
		ids.video = sim.seedVideoRequest().request_id;
	});

	it.each<[string, z.ZodTypeAny, HttpOptions?, number?]>([
		[
			'POST review /api/v2/profiles/add',
			ProfileAck,
			{ query: { url: 'https://g.example/p', blocks: 5 } },
		],
		[
			'POST review /api/v2/profiles/add_bulk',
			BulkResponse,
			{ body: [{ url: 'https://g.example/a' }, { query: 'cafe' }] },
		],
		['GET review /api/v2/responds/jobs', RespondJobList],
		['GET review /api/v2/responds/jobs/7001', RespondJob],
		['GET review /api/v2/local_naps/local_nap', LocalListingAudit, { query: { job_id: 7002 } }],
		[
			'POST scheduling /schedules',
			ScheduleEnvelope,
			{
				body: {
					service: 'riapi',
					endpoint: 'reviews',
					frequency: 'weekly',
					body: { callback: hook },
				},
			},
			201,
		],
		['GET scheduling /schedules', ScheduleEnvelope],
		['GET scheduling /schedules/:schedule', ScheduleEnvelope],
		[
			'POST ecommerce /search',
			EcommerceEnvelope,
			{ body: { callback: hook, keyword: 'lamp', per_page: 5 } },
		],
		['POST photo /v1/search', SubmitAck, { body: { callback_url: hook, keyword: '#beach' } }],
		['GET photo /v1/search/:photo', PhotoEnvelope],
		['GET photo /v1/requests/:photo', PhotoStatusRecord],
		[
			'POST social /v1/scrape',
			SubmitAck,
			{ body: { callback_url: hook, url: 'https://social.example/p/2', get_comments: true } },
		],
		['GET social /v1/scrape/:social', SocialEnvelope],
		['GET social /v1/requests/:social', SocialStatusRecord],
		['GET video /v1/requests/:video', VideoStatusRecord],
		['POST index /profiles', ReviewIndexAck, { body: { url: 'https://g.example/p' } }],
		['POST index /reviews', ReviewIndexAck, { query: { callback: hook } }],
		['DELETE scheduling /schedules/:schedule', ScheduleEnvelope],
	])('%s', async (...[route, schema, options, status = 200]) => {
		const response = await call(sim, withId(route), options);
		expect(response.status).toBe(status);
		const parsed = schema.safeParse(response.body);
		if (!parsed.success) throw new Error(`${response.text}\n${parsed.error.message}`);
		expect(response.headers['content-type']).toMatch(/^application\/json/);
	});

	it.each([
		['GET scheduling /schedules/999', SchedulingError],
		['GET photo /v1/search/nope', SchedulingError],
		['GET photo /v1/requests/nope', SchedulingError],
		['GET social /v1/scrape/nope', SchedulingError],
		['GET video /v1/requests/:photo', SchedulingError],
		['GET review /api/v2/responds/jobs/1', ReviewError],
	])('answers %s with 404 in the API style', async (route, schema) => {
		const response = await call(sim, withId(route));
		expect(response.status).toBe(404);
		expect(schema.parse(response.body).message).toMatch(/not found|doesn't exist/i);
	});

	it('answers 404 outside every API, for unknown paths, and 405 for a wrong method', async () => {
		expect((await http('GET', new URL('/nothing', sim.urls.baseUrl).href)).status).toBe(404);
		const unknown = await call(sim, 'GET ecommerce /v2/search');
		expect(unknown.status).toBe(404);
		expect(SchedulingError.parse(unknown.body).message).toBe('Not found');
		expect((await call(sim, 'GET ecommerce /search')).status).toBe(405);
	});

	it('answers 400 for a body that is not JSON', async () => {
		const headers = { ...keyAuth(sim), 'content-type': 'application/json' };
		expect((await call(sim, 'POST photo /v1/search', { headers })).status).toBe(400);
		const raw = await fetch(`${sim.urls.photoScraperUrl}/v1/search`, {
			method: 'POST',
			headers,
			body: '{"keyword":',
		});
		expect(raw.status).toBe(400);
		expect(SchedulingError.parse(await raw.json()).details).toBe('body is not valid JSON');
	});
});

describe('authentication', () => {
	it.each([
		'GET scheduling /schedules',
		'POST ecommerce /search',
		'GET video /v1/requests/x',
		'POST photo /v1/search',
		'POST social /v1/scrape',
	])('%s refuses a missing or wrong x-api-key with 401', async (route) => {
		const before = sim.counts();
		for (const headers of [
			{},
			{ 'x-api-key': 'wrong' },
			{ 'spiderman-token': sim.config.token },
		] as Array<Record<string, string>>) {
			const body = route.startsWith('POST') ? {} : undefined;
			const response = await call(sim, route, { headers, body });
			expect(response.status).toBe(401);
			expect(response.body).toEqual({
				status: 'failed',
				message: 'Invalid API key',
				details: null,
			});
		}
		expect(sim.counts()).toEqual(before);
	});

	it('review API refuses a missing or wrong spiderman-token with 401', async () => {
		const before = sim.counts().jobs;
		for (const headers of [{}, { 'spiderman-token': 'wrong' }, keyAuth(sim)] as Array<
			Record<string, string>
		>) {
			const response = await call(sim, 'POST review /api/v2/profiles/add', {
				headers,
				query: { url: 'https://g.example/p' },
			});
			expect(response.status).toBe(401);
			expect(response.body).toEqual({
				success: false,
				status: 401,
				message: 'Invalid spiderman-token',
			});
		}
		expect(sim.counts().jobs).toBe(before);
	});

	it('review index authenticates with the api_key query parameter only', async () => {
		const header = await call(sim, 'POST index /profiles', { headers: keyAuth(sim), body: {} });
		expect(header.status).toBe(401);
		expect(SchedulingError.parse(header.body).message).toBe('Invalid API key');
		const wrong = await call(sim, 'POST index /profiles', {
			query: { api_key: 'wrong' },
			body: {},
		});
		expect(wrong.status).toBe(401);
		expect((await call(sim, 'POST index /profiles', { body: {} })).status).toBe(200);
	});

	it('configure() changes the accepted credentials', async () => {
		sim.configure({ apiKey: 'rotated' });
		try {
			const old = await call(sim, 'GET scheduling /schedules', {
				headers: { 'x-api-key': 'sim-key' },
			});
			expect(old.status).toBe(401);
			expect((await call(sim, 'GET scheduling /schedules')).status).toBe(200);
		} finally {
			sim.configure({ apiKey: 'sim-key' });
		}
	});
});
