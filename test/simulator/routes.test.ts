import type { z } from 'zod';

import type { Simulator } from '../../simulator/server';
import {
	RespondJob,
	RespondJobList,
	ReviewIndexAck,
	SchedulingError,
} from '../../simulator/schemas';
import { call, http, type HttpOptions, keyAuth, startSimulator } from './helpers';

let sim: Simulator;
const hook = 'http://127.0.0.1:9/hook';
beforeAll(async () => {
	// Callbacks go nowhere in this file; one attempt keeps the delivery log quiet.
	sim = await startSimulator({ callbackRetry: { maxAttempts: 1 } });
});
afterAll(() => sim.stop());

// The other routes' bodies are parsed with their schemas by the tests of their API.
describe('the routes no API test reads answer a body that parses with its schema', () => {
	it.each<[string, z.ZodTypeAny, HttpOptions?]>([
		['GET review /api/v2/responds/jobs', RespondJobList],
		['GET review /api/v2/responds/jobs/7001', RespondJob],
		['POST index /profiles', ReviewIndexAck, { body: { url: 'https://g.example/p' } }],
		['POST index /reviews', ReviewIndexAck, { query: { callback: hook } }],
	])('%s', async (...[route, schema, options]) => {
		const response = await call(sim, route, options);
		expect(response.status).toBe(200);
		const parsed = schema.safeParse(response.body);
		if (!parsed.success) throw new Error(`${response.text}\n${parsed.error.message}`);
		expect(response.headers['content-type']).toMatch(/^application\/json/);
	});

	it.each(['GET photo /v1/search/nope', 'GET social /v1/scrape/nope'])(
		'answers %s with 404 in the API style',
		async (route) => {
			const response = await call(sim, route);
			expect(response.status).toBe(404);
			expect(SchedulingError.parse(response.body).message).toBe('Not found');
		},
	);

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
