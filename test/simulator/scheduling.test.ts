import type { Simulator } from '../../simulator/server';
import {
	ReviewIndexCallback,
	ReviewJobCallback,
	ScheduleEnvelope,
	SchedulingError,
} from '../../simulator/schemas';
import { http, keyAuth, type Receiver, startReceiver, startSimulator } from './helpers';

let sim: Simulator;
let receiver: Receiver;

beforeAll(async () => {
	sim = await startSimulator();
	receiver = await startReceiver();
});
afterAll(async () => {
	await sim.stop();
	await receiver.stop();
});
beforeEach(() => {
	sim.reset();
	receiver.received.length = 0;
});

const create = (body: unknown) =>
	http('POST', `${sim.urls.schedulingUrl}/schedules`, { headers: keyAuth(sim), body });

const valid = {
	service: 'rsapi',
	endpoint: 'add',
	frequency: 'daily',
	query_params: { url: 'https://maps.example/p' },
};

describe('POST /schedules validation (rules of spec section "Scheduling")', () => {
	const without = (field: string) =>
		Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field));

	it.each([
		['rule 1: service missing', without('service'), /^service is required/],
		['rule 1: endpoint missing', without('endpoint'), /^endpoint is required/],
		['rule 1: frequency missing', without('frequency'), /^frequency is required/],
		['frequency not in the list', { ...valid, frequency: 'hourly' }, /^frequency: /],
		['service not in the list', { ...valid, service: 'xapi' }, /^service: /],
		[
			'endpoint of the other service',
			{ ...valid, endpoint: 'profiles' },
			/^endpoint: must be one of add, add_bulk/,
		],
		[
			'rule 2: neither query_params nor body',
			without('query_params'),
			/either query_params or body/,
		],
		[
			'rule 3: the token header of rsapi (any case)',
			{ ...valid, headers: { 'SpiderMan-Token': 'abc' } },
			/^headers\.SpiderMan-Token: must not be supplied/,
		],
		[
			'rule 3: the api_key query parameter of riapi',
			{
				service: 'riapi',
				endpoint: 'profiles',
				frequency: 'weekly',
				query_params: { api_key: 'k', callback: 'http://x.example/' },
			},
			/^query_params\.api_key: must not be supplied/,
		],
		[
			'rule 4: add without url, query or place_id',
			{ ...valid, query_params: { blocks: 5 } },
			/^query_params: at least one of url, query, place_id/,
		],
		[
			'rule 4: add with a bad from_date',
			{ ...valid, query_params: { url: 'u', from_date: '2024-1-1' } },
			/^query_params\.from_date: /,
		],
		[
			'rule 4: add_bulk with an object body',
			{ ...valid, endpoint: 'add_bulk', query_params: undefined, body: { url: 'u' } },
			/^body: must be a list/,
		],
		[
			'rule 4: add_bulk with an invalid element',
			{
				...valid,
				endpoint: 'add_bulk',
				query_params: undefined,
				body: [{ url: 'u' }, { blocks: 'x', url: 'v' }],
			},
			/^body\[1\]\.blocks: must be a positive integer/,
		],
		[
			'rule 4: riapi with a list body',
			{ service: 'riapi', endpoint: 'reviews', frequency: 'daily', body: [{}] },
			/^body: must be an object/,
		],
		['an unknown field', { ...valid, cron: '* * * * *' }, /unknown field\(s\) cron/],
	])('%s → 400 naming the field', async (_name, body, details) => {
		const response = await create(body);
		expect(response.status).toBe(400);
		const error = SchedulingError.parse(response.body);
		expect(error.message).toBe('Invalid request');
		expect(error.details).toMatch(details);
		expect(sim.counts().schedules).toBe(0);
	});

	it('accepts headers other than the token for rsapi', async () => {
		const response = await create({
			...valid,
			query_params: { url: 'u' },
			headers: { 'x-trace': '1' },
		});
		expect(response.status).toBe(201);
	});
});

describe('schedule resources', () => {
	it('creates schedules with full endpoint addresses and empty unused payload parts', async () => {
		const rs = ScheduleEnvelope.parse((await create({ ...valid, schedule_name: 'nightly' })).body);
		expect(rs.status).toBe('success');
		expect(rs.results[0]).toEqual({
			schedule_id: 1,
			frequency: 'daily',
			service: 'rsapi',
			endpoint: `${sim.urls.baseUrl}/api/v2/profiles/add`,
			schedule_name: 'nightly',
			last_successful_run: null,
			payload: { query_params: { url: 'https://maps.example/p' }, body: {}, headers: {} },
			disabled: false,
			last_request_id: null,
			last_successful_request_id: null,
		});
		const ri = await create({
			service: 'riapi',
			endpoint: 'profiles',
			frequency: 'monthly',
			body: { url: 'u' },
		});
		expect(ri.status).toBe(201);
		const schedule = ScheduleEnvelope.parse(ri.body).results[0];
		expect(schedule.endpoint).toBe(`${sim.urls.reviewIndexUrl}/profiles`);
		expect(schedule.payload).toEqual({ query_params: {}, body: { url: 'u' }, headers: {} });
		expect(schedule.schedule_name).toBeNull();
	});

	it('lists, reads and deletes; a deleted or unknown id is 404', async () => {
		await create(valid);
		await create({ ...valid, frequency: 'weekly' });
		const list = ScheduleEnvelope.parse(
			(await http('GET', `${sim.urls.schedulingUrl}/schedules`, { headers: keyAuth(sim) })).body,
		);
		expect(list.results.map((s) => s.schedule_id)).toEqual([1, 2]);
		const one = await http('GET', `${sim.urls.schedulingUrl}/schedules/2`, {
			headers: keyAuth(sim),
		});
		expect(ScheduleEnvelope.parse(one.body).results[0].frequency).toBe('weekly');
		const removed = await http('DELETE', `${sim.urls.schedulingUrl}/schedules/2`, {
			headers: keyAuth(sim),
		});
		expect(removed.status).toBe(200);
		expect(ScheduleEnvelope.parse(removed.body).results[0].schedule_id).toBe(2);
		for (const [method, id] of [
			['GET', '2'],
			['DELETE', '2'],
			['GET', 'abc'],
		]) {
			const gone = await http(method, `${sim.urls.schedulingUrl}/schedules/${id}`, {
				headers: keyAuth(sim),
			});
			expect(gone.status).toBe(404);
			expect(gone.body).toEqual({ status: 'failed', message: 'Not found', details: null });
		}
		const after = ScheduleEnvelope.parse(
			(await http('GET', `${sim.urls.schedulingUrl}/schedules`, { headers: keyAuth(sim) })).body,
		);
		expect(after.results.map((s) => s.schedule_id)).toEqual([1]);
	});
});

describe('a schedule the account does not hold (config missingSchedule)', () => {
	it.each([
		[400, { status: 'failed', message: 'Invalid request', details: 'Schedule 7 does not exist' }],
		[403, { status: 'failed', message: 'Forbidden', details: null }],
	] as const)('answers %s to GET and DELETE', async (status, body) => {
		sim.configure({ missingSchedule: status });
		for (const method of ['GET', 'DELETE']) {
			const answer = await http(method, `${sim.urls.schedulingUrl}/schedules/7`, {
				headers: keyAuth(sim),
			});
			expect(answer.status).toBe(status);
			expect(SchedulingError.parse(answer.body)).toEqual(body);
		}
		await create(valid);
		const held = await http('GET', `${sim.urls.schedulingUrl}/schedules/1`, {
			headers: keyAuth(sim),
		});
		expect(held.status).toBe(200);
	});

	it('is set through POST /__sim/config', async () => {
		const answer = await http('POST', `${sim.urls.controlUrl}/config`, {
			body: { missingSchedule: 400 },
		});
		expect(answer.status).toBe(200);
		expect(sim.config.missingSchedule).toBe(400);
		const refused = await http('POST', `${sim.urls.controlUrl}/config`, {
			body: { missingSchedule: 418 },
		});
		expect(refused.status).toBe(400);
	});
});

describe('firing schedules', () => {
	it('rsapi add: creates a job with the stored query params and the service-supplied token', async () => {
		const created = await create({
			...valid,
			query_params: {
				url: 'https://maps.example/p',
				blocks: 3,
				callback: receiver.url,
				external_identifier: 'sched',
			},
			headers: { 'X-Trace': 't-1' },
		});
		const id = created.body.results[0].schedule_id;
		const fired = await sim.fireSchedule(id);
		expect(fired.response.status).toBe(200);
		expect(fired.response.body).toMatchObject({ success: true, job_id: 10001 });
		expect(fired.target).toEqual({
			method: 'POST',
			url: `${sim.urls.baseUrl}/api/v2/profiles/add`,
		});
		expect(fired.schedule.last_successful_run).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
		expect(fired.schedule.last_request_id).toBe(fired.request_id);
		expect(fired.schedule.last_successful_request_id).toBe(fired.request_id);

		const call = sim.requests().find((entry) => entry.origin === 'schedule')!;
		expect(call).toMatchObject({
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			responseStatus: 200,
		});
		expect(call.headers).toMatchObject({ 'spiderman-token': sim.config.token, 'x-trace': 't-1' });
		expect(call.query).toMatchObject({ blocks: '3', external_identifier: 'sched' });

		await sim.waitForDeliveries(1, 2000);
		const payload = ReviewJobCallback.parse(receiver.received[0].body);
		expect(payload).toMatchObject({ job_id: 10001, review_count: 3, external_identifier: 'sched' });

		const stored = await http('GET', `${sim.urls.schedulingUrl}/schedules/${id}`, {
			headers: keyAuth(sim),
		});
		expect(stored.body.results[0].last_successful_run).toBe(fired.schedule.last_successful_run);
	});

	it('rsapi add_bulk: creates one job per element', async () => {
		const created = await create({
			service: 'rsapi',
			endpoint: 'add_bulk',
			frequency: 'daily',
			body: [
				{ url: 'a', callback: receiver.url },
				{ query: 'b', callback: receiver.url },
				{ place_id: 'c' },
			],
		});
		const fired = await sim.fireSchedule(created.body.results[0].schedule_id);
		expect(fired.response.body).toHaveLength(3);
		expect(sim.counts()).toMatchObject({ jobs: 3, bulkJobs: 3 });
		await sim.waitForDeliveries(2, 2000);
		expect(receiver.received).toHaveLength(2);
	});

	it('riapi: calls the review index with the api_key and calls back body.callback', async () => {
		const created = await create({
			service: 'riapi',
			endpoint: 'reviews',
			frequency: 'weekly',
			query_params: { profile: 'p-9' },
			body: { callback: receiver.url },
		});
		const fired = await sim.fireSchedule(created.body.results[0].schedule_id);
		expect(fired.response.status).toBe(200);
		expect(sim.counts().reviewIndexJobs).toBe(1);
		const call = sim.requests().find((entry) => entry.origin === 'schedule')!;
		expect(call).toMatchObject({
			api: 'review-index',
			path: '/reviews',
			query: { api_key: sim.config.apiKey, profile: 'p-9' },
		});
		await sim.waitForDeliveries(1, 2000);
		const payload = ReviewIndexCallback.parse(receiver.received[0].body);
		expect(payload.endpoint).toBe('reviews');
		expect(payload.request_metadata).toEqual({ profile: 'p-9', callback: receiver.url });
		expect(payload.request_id).toBe((fired.response.body as { request_id: string }).request_id);
	});

	it('a failed run sets last_request_id but not last_successful_run', async () => {
		const created = await create({ ...valid, query_params: { url: 'u' } });
		const id = created.body.results[0].schedule_id;
		sim.configure({ token: 'rotated' });
		sim.state.schedules.get(id)!.schedule.payload.query_params = { blocks: 1 };
		const fired = await sim.fireSchedule(id);
		expect(fired.response.status).toBe(400);
		expect(fired.schedule.last_request_id).toBe(fired.request_id);
		expect(fired.schedule.last_successful_run).toBeNull();
		expect(sim.counts().jobs).toBe(0);
	});

	it('an unknown schedule cannot be fired', async () => {
		await expect(sim.fireSchedule(77)).rejects.toThrow('Schedule 77 not found');
	});
});

describe('what the service does to a schedule by itself (REAL-SERVICE.md, Schedules)', () => {
	const scheduleOf = async (body: unknown = valid) =>
		(await create(body)).body.results[0].schedule_id as number;
	const stored = async (id: number) =>
		(await http('GET', `${sim.urls.schedulingUrl}/schedules/${id}`, { headers: keyAuth(sim) })).body
			.results[0];

	it('disables a schedule after 10 failed runs in a row, and runs it no more', async () => {
		const id = await scheduleOf();
		sim.injectFault({ kind: 'success-false', api: 'review', path: '/profiles/add', times: 10 });
		for (let run = 1; run <= 9; run++) {
			const fired = await sim.fireSchedule(id);
			expect(fired.skipped).toBeUndefined();
			expect(fired.schedule.disabled).toBe(false);
		}
		const tenth = await sim.fireSchedule(id);
		expect(tenth.response.body).toMatchObject({ success: false });
		expect((await stored(id)).disabled).toBe(true);
		const after = await sim.fireSchedule(id);
		expect(after).toMatchObject({ skipped: 'disabled', request_id: null });
		expect(sim.counts().jobs).toBe(0);
	});

	it('a successful run starts the count of failures again', async () => {
		const id = await scheduleOf();
		sim.injectFault({ kind: '500', api: 'review', path: '/profiles/add', times: 9 });
		for (let run = 0; run < 9; run++) await sim.fireSchedule(id);
		expect((await sim.fireSchedule(id)).response.status).toBe(200);
		sim.injectFault({ kind: '500', api: 'review', path: '/profiles/add', times: 9 });
		for (let run = 0; run < 9; run++) {
			sim.releaseHeldJobs();
			await sim.fireSchedule(id, { ignorePending: true });
		}
		expect((await stored(id)).disabled).toBe(false);
	});

	it('skips a run while the last run\u2019s job is pending, and runs once it has finished', async () => {
		sim.configure({ holdCompletion: true });
		const id = await scheduleOf();
		const first = await sim.fireSchedule(id);
		expect(first.response.body).toMatchObject({ success: true, job_id: 10001 });
		const second = await sim.fireSchedule(id);
		expect(second).toMatchObject({ skipped: 'pending', request_id: null });
		expect(second.schedule.last_request_id).toBe(first.request_id);
		expect(sim.counts().jobs).toBe(1);
		sim.releaseHeldJobs();
		const third = await sim.fireSchedule(id);
		expect(third.response.body).toMatchObject({ success: true, job_id: 10002 });
	});

	it('disables a schedule when the account has no credits left', async () => {
		sim.configure({ credits: 1, holdCompletion: true });
		const id = await scheduleOf();
		expect((await sim.fireSchedule(id)).response.body).toMatchObject({ success: true });
		sim.releaseHeldJobs();
		const refused = await sim.fireSchedule(id);
		expect(refused.response.body).toMatchObject({
			success: false,
			message: 'Request refused: not enough credits',
		});
		expect((await stored(id)).disabled).toBe(true);
		expect(sim.counts().jobs).toBe(1);
	});

	it('is deleted behind a client\u2019s back, and aged, through the control API', async () => {
		const id = await scheduleOf();
		const control = (path: string) => `${sim.urls.controlUrl}${path}`;
		const aged = await http('POST', control(`/schedules/${id}/last-successful-run`), {
			body: { at: '2026-01-02T03:04:05' },
		});
		expect(aged.body.last_successful_run).toBe('2026-01-02T03:04:05');
		expect((await stored(id)).last_successful_run).toBe('2026-01-02T03:04:05');
		const bad = await http('POST', control(`/schedules/${id}/last-successful-run`), {
			body: { at: 'yesterday' },
		});
		expect(bad.status).toBe(400);
		sim.clearRequests();
		expect((await http('DELETE', control(`/schedules/${id}`))).status).toBe(200);
		expect(sim.requests()).toEqual([]);
		const gone = await http('GET', `${sim.urls.schedulingUrl}/schedules/${id}`, {
			headers: keyAuth(sim),
		});
		expect(gone.status).toBe(404);
		expect((await http('DELETE', control(`/schedules/${id}`))).status).toBe(404);
	});
});
