/**
 * The simulator's defaults follow the production service (docs/service-facts.md): a rate limit per
 * credential, review errors in HTTP 200, a cap on schedules. The other simulator suites opt out of
 * them (SPEC_ONLY) to test the interface's behaviour on its own.
 */
import { createSimulator, type Simulator } from '../../simulator/server';
import { DEFAULT_CONFIG } from '../../simulator/config';
import { call, sleep } from './helpers';

let sim: Simulator;

beforeEach(async () => {
	sim = createSimulator({ completionDelayMs: 20 });
	await sim.start();
});

afterEach(async () => {
	await sim.stop();
});

const respondJobs = (headers?: Record<string, string>) =>
	call(sim, 'GET review /api/v2/responds/jobs', { headers });
const addProfile = (query: Record<string, string | number>) =>
	call(sim, 'POST review /api/v2/profiles/add', { query });

describe('rate limit, on by default', () => {
	it('is 10 per second on the review API and 10 per second per key on the x-api-key APIs', () => {
		expect(DEFAULT_CONFIG.rateLimit).toEqual({ review: 10, apiKey: 10 });
		expect(sim.config.rateLimit).toEqual({ review: 10, apiKey: 10 });
	});

	it('accepts 10 review requests in a second, refuses the 11th with a bare 429 and creates nothing', async () => {
		const answers = await Promise.all(
			Array.from({ length: 10 }, (_, i) => addProfile({ url: `https://reviews.example/p/${i}` })),
		);
		expect(answers.map((answer) => answer.status)).toEqual(new Array(10).fill(200));
		const refused = await addProfile({ url: 'https://reviews.example/p/11' });
		expect(refused.status).toBe(429);
		expect(refused.headers['retry-after']).toBeUndefined();
		expect(refused.headers['content-type']).toMatch(/^text\/plain/);
		expect(() => JSON.parse(refused.text)).toThrow();
		expect(sim.counts()).toEqual(expect.objectContaining({ jobs: 10, rateLimited: 1 }));
		const last = sim.requests().at(-1)!;
		expect(last).toEqual(expect.objectContaining({ responseStatus: 429, rateLimited: true }));
	});

	it('accepts again once the rolling second has passed', async () => {
		for (let i = 0; i < 10; i++) {
			expect((await respondJobs()).status).toBe(200);
		}
		expect((await respondJobs()).status).toBe(429);
		await sleep(1050);
		expect((await respondJobs()).status).toBe(200);
	});

	it('counts each token apart, and each x-api-key API apart', async () => {
		sim.configure({ rateLimit: { review: 2, apiKey: 1 } });
		const other = { 'spiderman-token': 'another-account' };
		const statuses = [];
		for (const headers of [undefined, undefined, undefined, other]) {
			statuses.push((await respondJobs(headers)).status);
		}
		// The other account is over no limit: its refusal is the body's 401, in HTTP 200.
		expect(statuses).toEqual([200, 200, 429, 200]);
		expect((await call(sim, 'GET scheduling /schedules')).status).toBe(200);
		expect((await call(sim, 'GET scheduling /schedules')).status).toBe(429);
		expect((await call(sim, 'GET video /v1/requests/unknown')).status).not.toBe(429);
	});

	it('is lifted by configuring null, as tests of the interface alone do', async () => {
		sim.configure({ rateLimit: { review: null } });
		const answers = await Promise.all(Array.from({ length: 30 }, () => respondJobs()));
		expect(answers.every((answer) => answer.status === 200)).toBe(true);
		expect(sim.config.rateLimit.apiKey).toBe(10);
	});

	it('is settable through the control API', async () => {
		const answer = await call(sim, 'POST control /config', {
			body: { rateLimit: { review: 3 }, reviewErrors: 'status', scheduleLimit: 2 },
		});
		expect(answer.status).toBe(200);
		expect(sim.config).toEqual(
			expect.objectContaining({
				rateLimit: { review: 3, apiKey: 10 },
				reviewErrors: 'status',
				scheduleLimit: 2,
			}),
		);
		const refused = await call(sim, 'POST control /config', {
			body: { rateLimit: { review: 0 } },
		});
		expect(refused.status).toBe(400);
	});
});

describe('review API errors in HTTP 200, on by default', () => {
	it.each([
		[
			'a wrong token',
			() => respondJobs({ 'spiderman-token': 'wrong' }),
			{ status: 401, message: 'Invalid spiderman-token' },
		],
		[
			'a missing profile',
			() => addProfile({ blocks: 5 }),
			{ status: 400, message: expect.any(String) },
		],
		[
			'an unknown respond job',
			() => call(sim, 'GET review /api/v2/responds/jobs/424242'),
			{ status: 404, message: "This job ID doesn't exist, please create it" },
		],
	])(
		'refuses %s with HTTP 200, success false, and the status and message in the body',
		async (_name, send, refusal) => {
			const answer = await send();
			expect(answer.status).toBe(200);
			expect(answer.body).toEqual({ success: false, ...refusal });
		},
	);

	it('keeps HTTP error statuses on the x-api-key APIs, and on the review API in status mode', async () => {
		const schedules = await call(sim, 'GET scheduling /schedules', {
			headers: { 'x-api-key': 'wrong' },
		});
		expect(schedules.status).toBe(401);
		sim.configure({ reviewErrors: 'status' });
		const review = await respondJobs({ 'spiderman-token': 'wrong' });
		expect(review.status).toBe(401);
	});
});

describe('schedule cap, on by default', () => {
	it('refuses the schedule beyond the limit with 400, and accepts again after a delete', async () => {
		sim.configure({ scheduleLimit: 3, rateLimit: { apiKey: null } });
		expect(DEFAULT_CONFIG.scheduleLimit).toBe(500);
		const create = () =>
			call(sim, 'POST scheduling /schedules', {
				body: {
					service: 'rsapi',
					endpoint: 'add',
					frequency: 'daily',
					query_params: { url: 'https://reviews.example/p/1', callback: 'https://hooks.example/x' },
				},
			});
		const created = [];
		for (let i = 0; i < 3; i++) created.push(await create());
		expect(created.map((answer) => answer.status)).toEqual([201, 201, 201]);
		const refused = await create();
		expect(refused.status).toBe(400);
		expect(refused.body).toEqual({
			status: 'failed',
			message: 'Invalid request',
			details: 'Schedule limit reached: an account can have at most 3 schedules',
		});
		const id = created[0].body.results[0].schedule_id;
		await call(sim, `DELETE scheduling /schedules/${id}`);
		expect((await create()).status).toBe(201);
	});
});
