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
import { http, type HttpOptions, keyAuth, startSimulator, tokenAuth } from './helpers';

let sim: Simulator;
const hook = 'http://127.0.0.1:9/hook';

beforeAll(async () => {
	// Callbacks go nowhere in this file; one attempt keeps the delivery log quiet.
	sim = await startSimulator({ callbackRetry: { maxAttempts: 1 } });
});
afterAll(() => sim.stop());

interface Case {
	name: string;
	method: string;
	url: () => string;
	options?: () => HttpOptions;
	status: number;
	schema: z.ZodTypeAny;
}

async function createdIds() {
	const photo = await http('POST', `${sim.urls.photoScraperUrl}/v1/search`, {
		headers: keyAuth(sim),
		body: { callback_url: hook, keyword: 'sunset' },
	});
	const social = await http('POST', `${sim.urls.socialScraperUrl}/v1/scrape`, {
		headers: keyAuth(sim),
		body: { callback_url: hook, url: 'https://social.example/posts/1' },
	});
	const schedule = await http('POST', `${sim.urls.schedulingUrl}/schedules`, {
		headers: keyAuth(sim),
		body: {
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			query_params: { url: 'https://g.example/p' },
		},
	});
	return {
		photo: photo.body.request_id as string,
		social: social.body.request_id as string,
		schedule: schedule.body.results[0].schedule_id as number,
		video: sim.seedVideoRequest().request_id,
	};
}

describe('route table: every endpoint answers a body that parses with its schema', () => {
	let ids: Awaited<ReturnType<typeof createdIds>>;
	beforeAll(async () => {
		ids = await createdIds();
	});

	const cases: Case[] = [
		{
			name: 'review POST /api/v2/profiles/add',
			method: 'POST',
			url: () => `${sim.urls.baseUrl}/api/v2/profiles/add`,
			options: () => ({
				headers: tokenAuth(sim),
				query: { url: 'https://g.example/p', blocks: 5 },
			}),
			status: 200,
			schema: ProfileAck,
		},
		{
			name: 'review POST /api/v2/profiles/add_bulk',
			method: 'POST',
			url: () => `${sim.urls.baseUrl}/api/v2/profiles/add_bulk`,
			options: () => ({
				headers: tokenAuth(sim),
				body: [{ url: 'https://g.example/a' }, { query: 'cafe' }],
			}),
			status: 200,
			schema: BulkResponse,
		},
		{
			name: 'review GET /api/v2/responds/jobs',
			method: 'GET',
			url: () => `${sim.urls.baseUrl}/api/v2/responds/jobs`,
			options: () => ({ headers: tokenAuth(sim) }),
			status: 200,
			schema: RespondJobList,
		},
		{
			name: 'review GET /api/v2/responds/jobs/:job_id',
			method: 'GET',
			url: () => `${sim.urls.baseUrl}/api/v2/responds/jobs/7001`,
			options: () => ({ headers: tokenAuth(sim) }),
			status: 200,
			schema: RespondJob,
		},
		{
			name: 'review GET /api/v2/local_naps/local_nap',
			method: 'GET',
			url: () => `${sim.urls.baseUrl}/api/v2/local_naps/local_nap`,
			options: () => ({ headers: tokenAuth(sim), query: { job_id: 7002 } }),
			status: 200,
			schema: LocalListingAudit,
		},
		{
			name: 'scheduling POST /schedules',
			method: 'POST',
			url: () => `${sim.urls.schedulingUrl}/schedules`,
			options: () => ({
				headers: keyAuth(sim),
				body: {
					service: 'riapi',
					endpoint: 'reviews',
					frequency: 'weekly',
					body: { callback: hook },
				},
			}),
			status: 201,
			schema: ScheduleEnvelope,
		},
		{
			name: 'scheduling GET /schedules',
			method: 'GET',
			url: () => `${sim.urls.schedulingUrl}/schedules`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: ScheduleEnvelope,
		},
		{
			name: 'scheduling GET /schedules/:id',
			method: 'GET',
			url: () => `${sim.urls.schedulingUrl}/schedules/${ids.schedule}`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: ScheduleEnvelope,
		},
		{
			name: 'e-commerce POST /search',
			method: 'POST',
			url: () => `${sim.urls.ecommerceUrl}/search`,
			options: () => ({
				headers: keyAuth(sim),
				body: { callback: hook, keyword: 'lamp', per_page: 5 },
			}),
			status: 200,
			schema: EcommerceEnvelope,
		},
		{
			name: 'photo POST /v1/search',
			method: 'POST',
			url: () => `${sim.urls.photoScraperUrl}/v1/search`,
			options: () => ({ headers: keyAuth(sim), body: { callback_url: hook, keyword: '#beach' } }),
			status: 200,
			schema: SubmitAck,
		},
		{
			name: 'photo GET /v1/search/:id',
			method: 'GET',
			url: () => `${sim.urls.photoScraperUrl}/v1/search/${ids.photo}`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: PhotoEnvelope,
		},
		{
			name: 'photo GET /v1/requests/:id',
			method: 'GET',
			url: () => `${sim.urls.photoScraperUrl}/v1/requests/${ids.photo}`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: PhotoStatusRecord,
		},
		{
			name: 'social POST /v1/scrape',
			method: 'POST',
			url: () => `${sim.urls.socialScraperUrl}/v1/scrape`,
			options: () => ({
				headers: keyAuth(sim),
				body: { callback_url: hook, url: 'https://social.example/p/2', get_comments: true },
			}),
			status: 200,
			schema: SubmitAck,
		},
		{
			name: 'social GET /v1/scrape/:id',
			method: 'GET',
			url: () => `${sim.urls.socialScraperUrl}/v1/scrape/${ids.social}`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: SocialEnvelope,
		},
		{
			name: 'social GET /v1/requests/:id',
			method: 'GET',
			url: () => `${sim.urls.socialScraperUrl}/v1/requests/${ids.social}`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: SocialStatusRecord,
		},
		{
			name: 'video GET /v1/requests/:id',
			method: 'GET',
			url: () => `${sim.urls.videoScraperUrl}/v1/requests/${ids.video}`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: VideoStatusRecord,
		},
		{
			name: 'review index POST /profiles',
			method: 'POST',
			url: () => `${sim.urls.reviewIndexUrl}/profiles`,
			options: () => ({
				query: { api_key: sim.config.apiKey },
				body: { url: 'https://g.example/p' },
			}),
			status: 200,
			schema: ReviewIndexAck,
		},
		{
			name: 'review index POST /reviews',
			method: 'POST',
			url: () => `${sim.urls.reviewIndexUrl}/reviews`,
			options: () => ({ query: { api_key: sim.config.apiKey, callback: hook } }),
			status: 200,
			schema: ReviewIndexAck,
		},
		{
			name: 'scheduling DELETE /schedules/:id',
			method: 'DELETE',
			url: () => `${sim.urls.schedulingUrl}/schedules/${ids.schedule}`,
			options: () => ({ headers: keyAuth(sim) }),
			status: 200,
			schema: ScheduleEnvelope,
		},
	];

	it.each(cases)('$name', async ({ method, url, options, status, schema }) => {
		const response = await http(method, url(), options?.());
		expect(response.status).toBe(status);
		const parsed = schema.safeParse(response.body);
		if (!parsed.success) throw new Error(`${response.text}\n${parsed.error.message}`);
		expect(response.headers['content-type']).toMatch(/^application\/json/);
	});

	it('answers 404 bodies of the API style for unknown ids', async () => {
		const notFound = [
			[`${sim.urls.schedulingUrl}/schedules/999`, SchedulingError, keyAuth(sim)],
			[`${sim.urls.photoScraperUrl}/v1/search/nope`, SchedulingError, keyAuth(sim)],
			[`${sim.urls.photoScraperUrl}/v1/requests/nope`, SchedulingError, keyAuth(sim)],
			[`${sim.urls.socialScraperUrl}/v1/scrape/nope`, SchedulingError, keyAuth(sim)],
			[`${sim.urls.videoScraperUrl}/v1/requests/${ids.photo}`, SchedulingError, keyAuth(sim)],
			[`${sim.urls.baseUrl}/api/v2/responds/jobs/1`, ReviewError, tokenAuth(sim)],
		] as const;
		for (const [url, schema, headers] of notFound) {
			const response = await http('GET', url, { headers });
			expect({ url, status: response.status }).toEqual({ url, status: 404 });
			expect(schema.parse(response.body).message).toMatch(/not found|doesn't exist/i);
		}
	});

	it('answers 404 outside every API, for unknown paths, and 405 for a wrong method', async () => {
		expect((await http('GET', sim.urls.baseUrl.replace('/review', '/nothing'))).status).toBe(404);
		const unknown = await http('GET', `${sim.urls.ecommerceUrl}/v2/search`, {
			headers: keyAuth(sim),
		});
		expect(unknown.status).toBe(404);
		expect(SchedulingError.parse(unknown.body).message).toBe('Not found');
		const wrongMethod = await http('GET', `${sim.urls.ecommerceUrl}/search`, {
			headers: keyAuth(sim),
		});
		expect(wrongMethod.status).toBe(405);
	});

	it('answers 400 for a body that is not JSON', async () => {
		const response = await http('POST', `${sim.urls.photoScraperUrl}/v1/search`, {
			headers: { ...keyAuth(sim), 'content-type': 'application/json' },
		});
		expect(response.status).toBe(400);
		const raw = await fetch(`${sim.urls.photoScraperUrl}/v1/search`, {
			method: 'POST',
			headers: { ...keyAuth(sim), 'content-type': 'application/json' },
			body: '{"keyword":',
		});
		expect(raw.status).toBe(400);
		expect(SchedulingError.parse(await raw.json()).details).toBe('body is not valid JSON');
	});
});

describe('authentication', () => {
	const keyApis = [
		['scheduling', () => `${sim.urls.schedulingUrl}/schedules`, 'GET'],
		['e-commerce', () => `${sim.urls.ecommerceUrl}/search`, 'POST'],
		['video', () => `${sim.urls.videoScraperUrl}/v1/requests/x`, 'GET'],
		['photo', () => `${sim.urls.photoScraperUrl}/v1/search`, 'POST'],
		['social', () => `${sim.urls.socialScraperUrl}/v1/scrape`, 'POST'],
	] as const;

	it.each(keyApis)(
		'%s refuses a missing or wrong x-api-key with 401',
		async (_name, url, method) => {
			const before = sim.counts();
			for (const headers of [
				{} as Record<string, string>,
				{ 'x-api-key': 'wrong' },
				{ 'spiderman-token': sim.config.token },
			]) {
				const response = await http(method, url(), {
					headers,
					body: method === 'POST' ? {} : undefined,
				});
				expect(response.status).toBe(401);
				expect(response.body).toEqual({
					status: 'failed',
					message: 'Invalid API key',
					details: null,
				});
			}
			expect(sim.counts()).toEqual(before);
		},
	);

	it('review API refuses a missing or wrong spiderman-token with 401', async () => {
		const before = sim.counts().jobs;
		for (const headers of [
			{} as Record<string, string>,
			{ 'spiderman-token': 'wrong' },
			keyAuth(sim),
		]) {
			const response = await http('POST', `${sim.urls.baseUrl}/api/v2/profiles/add`, {
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
		const url = `${sim.urls.reviewIndexUrl}/profiles`;
		const header = await http('POST', url, { headers: keyAuth(sim), body: {} });
		expect(header.status).toBe(401);
		expect(SchedulingError.parse(header.body).message).toBe('Invalid API key');
		const wrong = await http('POST', url, { query: { api_key: 'wrong' }, body: {} });
		expect(wrong.status).toBe(401);
		const right = await http('POST', url, { query: { api_key: sim.config.apiKey }, body: {} });
		expect(right.status).toBe(200);
	});

	it('configure() changes the accepted credentials', async () => {
		sim.configure({ apiKey: 'rotated' });
		try {
			const old = await http('GET', `${sim.urls.schedulingUrl}/schedules`, {
				headers: { 'x-api-key': 'sim-key' },
			});
			expect(old.status).toBe(401);
			const fresh = await http('GET', `${sim.urls.schedulingUrl}/schedules`, {
				headers: { 'x-api-key': 'rotated' },
			});
			expect(fresh.status).toBe(200);
		} finally {
			sim.configure({ apiKey: 'sim-key' });
		}
	});
});
