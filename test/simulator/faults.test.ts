import type { Simulator } from '../../simulator/server';
import { ProfileAck, SchedulingError } from '../../simulator/schemas';
import { call, sleep, startSimulator } from './helpers';

let sim: Simulator;

beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const addUrl = (url: string) => call(sim, 'POST review /api/v2/profiles/add', { query: { url } });
const addProfile = () => addUrl('https://maps.example/p');
const photoSearch = () =>
	call(sim, 'POST photo /v1/search', {
		body: { callback_url: 'http://127.0.0.1:9/hook', keyword: 'x' },
	});
const listSchedules = () => call(sim, 'GET scheduling /schedules');

describe('fault kinds', () => {
	it('429 answers Retry-After and a scheduling-style body, and creates nothing', async () => {
		sim.injectFault({ api: 'review', kind: '429', retryAfterSeconds: 7 });
		const response = await addProfile();
		expect(response.status).toBe(429);
		expect(response.headers['retry-after']).toBe('7');
		expect(SchedulingError.parse(response.body).message).toBe('Too many requests');
		expect(sim.counts().jobs).toBe(0);
		expect((await addProfile()).status).toBe(200);
		expect(sim.counts().jobs).toBe(1);
	});

	it.each([
		['500', 'Unknown error occured'],
		['503', 'Service unavailable'],
	] as const)(
		'%s answers that status with a scheduling-style body, and creates nothing',
		async (kind, message) => {
			sim.injectFault({ path: '/v1/search', kind });
			const response = await photoSearch();
			expect(response.status).toBe(Number(kind));
			expect(response.body).toEqual({ status: 'failed', message, details: null });
			expect(sim.counts().photoSearches).toBe(0);
		},
	);

	it('slow waits delayMs, then answers normally', async () => {
		sim.injectFault({ api: 'scheduling', kind: 'slow', delayMs: 150 });
		const started = Date.now();
		const response = await listSchedules();
		expect(Date.now() - started).toBeGreaterThanOrEqual(145);
		expect(response.status).toBe(200);
		expect(response.body).toEqual({ status: 'success', results: [] });
	});

	it.each([
		[true, 'carries the request out at once and holds back only the answer', 1],
		[false, 'carries the request out only after the delay', 0],
	])('slow with processFirst %s %s', async (processFirst, _does, jobsMidway) => {
		const path = '/api/v2/profiles/add';
		sim.injectFault({ method: 'POST', path, kind: 'slow', delayMs: 300, processFirst });
		const started = Date.now();
		const answer = addProfile();
		await sleep(150);
		expect(sim.counts().jobs).toBe(jobsMidway);
		expect((await answer).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(295);
		expect(sim.counts().jobs).toBe(1);
	});

	it('malformed answers 200 with a truncated JSON body (the request was processed)', async () => {
		sim.injectFault({ api: 'photo', kind: 'malformed' });
		const response = await photoSearch();
		expect(response.status).toBe(200);
		expect(response.headers['content-type']).toMatch(/^application\/json/);
		expect(response.text.length).toBeGreaterThan(0);
		expect(() => JSON.parse(response.text)).toThrow();
		expect(response.text.startsWith('{"status":"created"')).toBe(true);
		expect(sim.counts().photoSearches).toBe(1);
	});

	it('success-false answers HTTP 200 with success false, and creates nothing', async () => {
		sim.injectFault({ api: 'review', kind: 'success-false' });
		const response = await addProfile();
		expect(response.status).toBe(200);
		expect(response.body).toEqual({ success: false, status: 500, message: 'Simulated failure' });
		expect(sim.counts().jobs).toBe(0);
	});
});

describe('fault matching', () => {
	it('times counts matches; later requests are served normally', async () => {
		sim.injectFault({ api: 'review', kind: '503', times: 2 });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await addProfile()).status);
		expect(statuses).toEqual([503, 503, 200]);
		expect(sim.faults()).toHaveLength(0);
	});

	it('faults are used in the order they were injected', async () => {
		sim.injectFault({ kind: '500' });
		sim.injectFault({ kind: '429' });
		const first = await listSchedules();
		const second = await listSchedules();
		const third = await listSchedules();
		expect([first.status, second.status, third.status]).toEqual([500, 429, 200]);
	});

	it('api, method and path must all match', async () => {
		sim.injectFault({ api: 'photo', kind: '500' });
		sim.injectFault({ method: 'DELETE', kind: '500' });
		sim.injectFault({ path: '/v1/scrape', kind: '500' });
		expect((await listSchedules()).status).toBe(200);
		expect(ProfileAck.parse((await addProfile()).body).success).toBe(true);
		expect(sim.faults()).toHaveLength(3);
		expect((await photoSearch()).status).toBe(500);
		expect(sim.faults().map((f) => f.kind)).toEqual(['500', '500']);
	});

	it('records every request in the log, with its fault', async () => {
		sim.injectFault({ api: 'review', kind: '429' });
		await addProfile();
		await addProfile();
		const log = sim.requests();
		expect(log.map((e) => [e.seq, e.api, e.method, e.fault, e.responseStatus])).toEqual([
			[1, 'review', 'POST', '429', 429],
			[2, 'review', 'POST', undefined, 200],
		]);
		expect(log[0].query).toEqual({ url: 'https://maps.example/p' });
		expect(log[0].headers['spiderman-token']).toBe(sim.config.token);
		sim.clearRequests();
		expect(sim.requests()).toEqual([]);
	});

	it('clearFaults() removes pending faults', async () => {
		sim.injectFault({ kind: '500', times: 5 });
		sim.clearFaults();
		expect((await listSchedules()).status).toBe(200);
	});

	it('refuses an unknown fault kind', () => {
		expect(() => sim.injectFault({ kind: '418' as never })).toThrow();
	});
});

describe('a refusal of one chosen item on a chosen try, and submissions per subject', () => {
	it('refuses only requests holding the matched text, after letting `skip` of them through', async () => {
		sim.injectFault({ api: 'review', kind: 'refused', match: 'p%2Fb', skip: 1, times: 1 });
		expect((await addUrl('https://maps.example/p/a')).body).toMatchObject({ success: true });
		expect((await addUrl('https://maps.example/p/b')).body).toMatchObject({ success: true });
		const refused = await addUrl('https://maps.example/p/b');
		// As the review API's other errors in this configuration (HTTP 200 by default).
		expect(refused.status).toBe(sim.config.reviewErrors === 'http200' ? 200 : 400);
		expect(refused.body).toMatchObject({ success: false, status: 400 });
		expect((await addUrl('https://maps.example/p/b')).body).toMatchObject({ success: true });
		expect(sim.counts().jobs).toBe(3);
		expect(sim.faults()).toHaveLength(0);
	});

	it('answers a refusal of the scraping APIs with HTTP 400 and creates nothing', async () => {
		sim.injectFault({ path: '/v1/search', kind: 'refused', match: '"keyword":"x"' });
		const response = await photoSearch();
		expect(response.status).toBe(400);
		expect(sim.counts().photoSearches).toBe(0);
	});

	it('counts submissions per profile, bulk elements each, rate-limit refusals not', async () => {
		await addUrl('https://maps.example/p/a');
		await addUrl('https://maps.example/p/a');
		await call(sim, 'POST review /api/v2/profiles/add_bulk', {
			body: [{ url: 'https://maps.example/p/a' }, { query: 'Pizza Berlin' }],
		});
		await photoSearch();
		expect(sim.submissions()).toEqual({
			'https://maps.example/p/a': 3,
			'Pizza Berlin': 1,
			x: 1,
		});
	});
});
