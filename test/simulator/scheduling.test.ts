import {
	ReviewIndexCallback,
	ReviewJobCallback,
	ScheduleEnvelope,
	SchedulingError,
} from '../../simulator/schemas';
import { useSimulator } from './helpers';

const suite = useSimulator();
const create = (body: unknown) => suite.call('POST scheduling /schedules', { body });
const scheduleOf = async (body: unknown = valid) =>
	(await create(body)).body.results[0].schedule_id as number;
const read = (id: number | string, method = 'GET') =>
	suite.call(`${method} scheduling /schedules/${id}`);
const stored = async (id: number) => (await read(id)).body.results[0];
const list = async () =>
	ScheduleEnvelope.parse((await suite.call('GET scheduling /schedules')).body).results.map(
		(s) => s.schedule_id,
	);

const valid = {
	service: 'rsapi',
	endpoint: 'add',
	frequency: 'daily',
	query_params: { url: 'https://maps.example/p' },
};

describe('POST /schedules validation (rules of spec section "Scheduling")', () => {
	const without = (field: string) =>
		Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field));

	// The lists of values, and the rules of docs/service-facts.md#schedules: required fields, a payload,
	// no credential of the service's own, the target endpoint's own checks.
	it.each([
		[without('service'), /^service is required/],
		[without('endpoint'), /^endpoint is required/],
		[without('frequency'), /^frequency is required/],
		[{ ...valid, frequency: 'hourly' }, /^frequency: /],
		[{ ...valid, service: 'xapi' }, /^service: /],
		[{ ...valid, endpoint: 'profiles' }, /^endpoint: must be one of add, add_bulk/],
		[without('query_params'), /either query_params or body/],
		[
			{ ...valid, headers: { 'SpiderMan-Token': 'abc' } },
			/^headers\.SpiderMan-Token: must not be supplied/,
		],
		[
			{
				service: 'riapi',
				endpoint: 'profiles',
				frequency: 'weekly',
				query_params: { api_key: 'k', callback: 'http://x.example/' },
			},
			/^query_params\.api_key: must not be supplied/,
		],
		[
			{ ...valid, query_params: { blocks: 5 } },
			/^query_params: at least one of url, query, place_id/,
		],
		[{ ...valid, query_params: { url: 'u', from_date: '2024-1-1' } }, /^query_params\.from_date: /],
		[
			{ ...valid, endpoint: 'add_bulk', query_params: undefined, body: { url: 'u' } },
			/^body: must be a list/,
		],
		[
			{
				...valid,
				endpoint: 'add_bulk',
				query_params: undefined,
				body: [{ url: 'u' }, { blocks: 'x', url: 'v' }],
			},
			/^body\[1\]\.blocks: must be a positive integer/,
		],
		[
			{ service: 'riapi', endpoint: 'reviews', frequency: 'daily', body: [{}] },
			/^body: must be an object/,
		],
		[{ ...valid, cron: '* * * * *' }, /unknown field\(s\) cron/],
	])('refuses %p with 400 naming the field', async (body, details) => {
		const response = await create(body);
		expect(response.status).toBe(400);
		const error = SchedulingError.parse(response.body);
		expect(error.message).toBe('Invalid request');
		expect(error.details).toMatch(details);
		expect(suite.sim.counts().schedules).toBe(0);
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
	// Full endpoint addresses, empty unused payload parts, a list, a read and a delete are asserted
	// through the Scraping Scheduler node in test/engine/ScrapingScheduler.test.ts.
	it('creates a schedule with no name, no run yet, and an empty query', async () => {
		const ri = await create({
			service: 'riapi',
			endpoint: 'profiles',
			frequency: 'monthly',
			body: { url: 'u' },
		});
		expect(ri.status).toBe(201);
		expect(ScheduleEnvelope.parse(ri.body).results[0]).toEqual({
			schedule_id: 1,
			frequency: 'monthly',
			service: 'riapi',
			endpoint: `${suite.sim.urls.reviewIndexUrl}/profiles`,
			schedule_name: null,
			last_successful_run: null,
			payload: { query_params: {}, body: { url: 'u' }, headers: {} },
			disabled: false,
			last_request_id: null,
			last_successful_request_id: null,
		});
	});

	it('answers 404 in its style for a deleted or unknown id, to a read and to a delete', async () => {
		await create(valid);
		await create(valid);
		expect((await read(2, 'DELETE')).status).toBe(200);
		for (const [id, method] of [
			[2, 'GET'],
			[2, 'DELETE'],
			['abc', 'GET'],
		]) {
			const gone = await read(id, method as string);
			expect(gone.status).toBe(404);
			expect(gone.body).toEqual({ status: 'failed', message: 'Not found', details: null });
		}
		expect(await list()).toEqual([1]);
	});
});

describe('a schedule the account does not hold (config missingSchedule)', () => {
	it.each([
		[400, { status: 'failed', message: 'Invalid request', details: 'Schedule 7 does not exist' }],
		[403, { status: 'failed', message: 'Forbidden', details: null }],
	] as const)('answers %s to GET and DELETE', async (status, body) => {
		suite.sim.configure({ missingSchedule: status });
		for (const method of ['GET', 'DELETE']) {
			const answer = await read(7, method);
			expect(answer.status).toBe(status);
			expect(SchedulingError.parse(answer.body)).toEqual(body);
		}
		await create(valid);
		expect((await read(1)).status).toBe(200);
	});

	it('gives a reason that names the id, or with missingScheduleWording plain one that does not', async () => {
		suite.sim.configure({ missingSchedule: 400, missingScheduleWording: 'plain' });
		for (const method of ['GET', 'DELETE']) {
			const answer = await read(7, method);
			expect(answer.status).toBe(400);
			expect(SchedulingError.parse(answer.body)).toEqual({
				status: 'failed',
				message: 'Invalid request',
				details: 'schedule not found',
			});
		}
		suite.sim.configure({ missingScheduleWording: 'namesId' });
		expect((await read(7)).body).toMatchObject({ details: 'Schedule 7 does not exist' });
	});

	it('is set through POST /__sim/config', async () => {
		const configure = (body: unknown) => suite.call('POST control /config', { body });
		expect((await configure({ missingSchedule: 400 })).status).toBe(200);
		expect(suite.sim.config.missingSchedule).toBe(400);
		expect((await configure({ missingSchedule: 418 })).status).toBe(400);
		expect((await configure({ missingScheduleWording: 'plain' })).status).toBe(200);
		expect(suite.sim.config.missingScheduleWording).toBe('plain');
		expect((await configure({ missingScheduleWording: 'vague' })).status).toBe(400);
	});
});

describe('firing schedules', () => {
	it('rsapi add: creates a job with the stored query params and the service-supplied token', async () => {
		const id = await scheduleOf({
			...valid,
			query_params: {
				url: 'https://maps.example/p',
				blocks: 3,
				callback: suite.receiver.url,
				external_identifier: 'sched',
			},
			headers: { 'X-Trace': 't-1' },
		});
		const fired = await suite.sim.fireSchedule(id);
		expect(fired.response.status).toBe(200);
		expect(fired.response.body).toMatchObject({ success: true, job_id: 10001 });
		expect(fired.target).toEqual({
			method: 'POST',
			url: `${suite.sim.urls.baseUrl}/api/v2/profiles/add`,
		});
		expect(fired.schedule.last_successful_run).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
		expect(fired.schedule.last_request_id).toBe(fired.request_id);
		expect(fired.schedule.last_successful_request_id).toBe(fired.request_id);

		const call = suite.sim.requests().find((entry) => entry.origin === 'schedule')!;
		expect(call).toMatchObject({
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			responseStatus: 200,
		});
		expect(call.headers).toMatchObject({
			'spiderman-token': suite.sim.config.token,
			'x-trace': 't-1',
		});
		expect(call.query).toMatchObject({ blocks: '3', external_identifier: 'sched' });

		await suite.sim.waitForDeliveries(1, 2000);
		const payload = ReviewJobCallback.parse(suite.receiver.received[0].body);
		expect(payload).toMatchObject({ job_id: 10001, review_count: 3, external_identifier: 'sched' });

		expect((await stored(id)).last_successful_run).toBe(fired.schedule.last_successful_run);
	});

	it('rsapi add_bulk: creates one job per element', async () => {
		const fired = await suite.sim.fireSchedule(
			await scheduleOf({
				service: 'rsapi',
				endpoint: 'add_bulk',
				frequency: 'daily',
				body: [
					{ url: 'a', callback: suite.receiver.url },
					{ query: 'b', callback: suite.receiver.url },
					{ place_id: 'c' },
				],
			}),
		);
		expect(fired.response.body).toHaveLength(3);
		expect(suite.sim.counts()).toMatchObject({ jobs: 3, bulkJobs: 3 });
		await suite.sim.waitForDeliveries(2, 2000);
		expect(suite.receiver.received).toHaveLength(2);
	});

	it('riapi: calls the review index with the api_key and calls back body.callback', async () => {
		const fired = await suite.sim.fireSchedule(
			await scheduleOf({
				service: 'riapi',
				endpoint: 'reviews',
				frequency: 'weekly',
				query_params: { profile: 'p-9' },
				body: { callback: suite.receiver.url },
			}),
		);
		expect(fired.response.status).toBe(200);
		expect(suite.sim.counts().reviewIndexJobs).toBe(1);
		const call = suite.sim.requests().find((entry) => entry.origin === 'schedule')!;
		expect(call).toMatchObject({
			api: 'reviewIndex',
			path: '/reviews',
			query: { api_key: suite.sim.config.apiKey, profile: 'p-9' },
		});
		await suite.sim.waitForDeliveries(1, 2000);
		const payload = ReviewIndexCallback.parse(suite.receiver.received[0].body);
		expect(payload.endpoint).toBe('reviews');
		expect(payload.request_metadata).toEqual({ profile: 'p-9', callback: suite.receiver.url });
		expect(payload.request_id).toBe((fired.response.body as { request_id: string }).request_id);
	});

	it('a failed run sets last_request_id but not last_successful_run', async () => {
		const id = await scheduleOf({ ...valid, query_params: { url: 'u' } });
		suite.sim.configure({ token: 'rotated' });
		suite.sim.state.schedules.get(id)!.schedule.payload.query_params = { blocks: 1 };
		const fired = await suite.sim.fireSchedule(id);
		expect(fired.response.status).toBe(400);
		expect(fired.schedule.last_request_id).toBe(fired.request_id);
		expect(fired.schedule.last_successful_run).toBeNull();
		expect(suite.sim.counts().jobs).toBe(0);
	});

	it('an unknown schedule cannot be fired', async () => {
		await expect(suite.sim.fireSchedule(77)).rejects.toThrow('Schedule 77 not found');
	});
});

describe('what the service does to a schedule by itself (service-facts.md, Schedules over time)', () => {
	it('disables a schedule after 10 failed runs in a row, and runs it no more', async () => {
		const id = await scheduleOf();
		suite.sim.injectFault({
			kind: 'success-false',
			api: 'review',
			path: '/profiles/add',
			times: 10,
		});
		for (let run = 1; run <= 9; run++) {
			const fired = await suite.sim.fireSchedule(id);
			expect(fired.skipped).toBeUndefined();
			expect(fired.schedule.disabled).toBe(false);
		}
		const tenth = await suite.sim.fireSchedule(id);
		expect(tenth.response.body).toMatchObject({ success: false });
		expect((await stored(id)).disabled).toBe(true);
		const after = await suite.sim.fireSchedule(id);
		expect(after).toMatchObject({ skipped: 'disabled', request_id: null });
		expect(suite.sim.counts().jobs).toBe(0);
	});

	it('a successful run starts the count of failures again', async () => {
		const id = await scheduleOf();
		suite.sim.injectFault({ kind: '500', api: 'review', path: '/profiles/add', times: 9 });
		for (let run = 0; run < 9; run++) await suite.sim.fireSchedule(id);
		expect((await suite.sim.fireSchedule(id)).response.status).toBe(200);
		suite.sim.injectFault({ kind: '500', api: 'review', path: '/profiles/add', times: 9 });
		for (let run = 0; run < 9; run++) {
			suite.sim.releaseHeldJobs();
			await suite.sim.fireSchedule(id, { ignorePending: true });
		}
		expect((await stored(id)).disabled).toBe(false);
	});

	it('skips a run while the last run\u2019s job is pending, and runs once it has finished', async () => {
		suite.sim.configure({ holdCompletion: true });
		const id = await scheduleOf();
		const first = await suite.sim.fireSchedule(id);
		expect(first.response.body).toMatchObject({ success: true, job_id: 10001 });
		const second = await suite.sim.fireSchedule(id);
		expect(second).toMatchObject({ skipped: 'pending', request_id: null });
		expect(second.schedule.last_request_id).toBe(first.request_id);
		expect(suite.sim.counts().jobs).toBe(1);
		suite.sim.releaseHeldJobs();
		const third = await suite.sim.fireSchedule(id);
		expect(third.response.body).toMatchObject({ success: true, job_id: 10002 });
	});

	it('disables a schedule when the account has no credits left', async () => {
		suite.sim.configure({ credits: 1, holdCompletion: true });
		const id = await scheduleOf();
		expect((await suite.sim.fireSchedule(id)).response.body).toMatchObject({ success: true });
		suite.sim.releaseHeldJobs();
		const refused = await suite.sim.fireSchedule(id);
		expect(refused.response.body).toMatchObject({
			success: false,
			message: 'Request refused: not enough credits',
		});
		expect((await stored(id)).disabled).toBe(true);
		expect(suite.sim.counts().jobs).toBe(1);
	});

	it('is deleted behind a client\u2019s back, and aged, through the control API', async () => {
		const id = await scheduleOf();
		const age = (at: string) =>
			suite.call(`POST control /schedules/${id}/last-successful-run`, { body: { at } });
		expect((await age('2026-01-02T03:04:05')).body.last_successful_run).toBe('2026-01-02T03:04:05');
		expect((await stored(id)).last_successful_run).toBe('2026-01-02T03:04:05');
		expect((await age('yesterday')).status).toBe(400);
		suite.sim.clearRequests();
		expect((await suite.call(`DELETE control /schedules/${id}`)).status).toBe(200);
		expect(suite.sim.requests()).toEqual([]);
		expect((await read(id)).status).toBe(404);
		expect((await suite.call(`DELETE control /schedules/${id}`)).status).toBe(404);
	});
});
