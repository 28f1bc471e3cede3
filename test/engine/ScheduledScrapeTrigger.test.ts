import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { ScheduledScrapeTrigger } from '../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { credentialTypes, credentialsFor, startReceiver, useSimulator } from './fixtures';
import { runWorkflow, triggerHarness } from './harness';

const context = useSimulator();
const TYPE = 'n8n-nodes-review-scraping.scheduledScrapeTrigger';
const NODE = 'Scheduled Scrape Trigger';

/** `staticData`: what n8n saved before a restart. */
function trigger(
	parameters: INodeParameters,
	baseUrl?: string,
	apiKey?: string,
	staticData?: IDataObject,
) {
	return triggerHarness({
		node: NODE,
		nodes: [{ name: NODE, type: TYPE, parameters, webhookId: 'trigger-webhook-id' }],
		nodeTypes: { [TYPE]: new ScheduledScrapeTrigger() },
		credentialTypes,
		credentials: credentialsFor(context.sim, apiKey ? { apiKey } : undefined),
		baseUrl,
		staticData,
	});
}
type Trigger = ReturnType<typeof trigger>;
const stateOf = (node: Trigger) => node.staticData[`node:${NODE}`] as IDataObject;
const queryOf = (schedule: IDataObject) =>
	(schedule.payload as IDataObject).query_params as IDataObject;
const deleteSchedule = (scheduleId: unknown) =>
	fetch(`${context.sim.urls.schedulingUrl}/schedules/${scheduleId}`, {
		method: 'DELETE',
		headers: { 'x-api-key': 'engine-key' },
	});

async function created(
	parameters: INodeParameters = onePizzaProfile,
	baseUrl?: string,
	apiKey?: string,
) {
	const node = trigger(parameters, baseUrl, apiKey);
	await node.lifecycle('create');
	return { node, state: stateOf(node) };
}

async function withReceiver(use: (receiver: Receiver) => Promise<void>) {
	const receiver = await startReceiver();
	try {
		await use(receiver);
	} finally {
		await receiver.close();
	}
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const onePizzaProfile = {
	collect: 'profile',
	frequency: 'weekly',
	url: 'https://reviews.example.com/biz/pizza',
	blocks: 20,
};

// Read from the simulator's state: a request of the test's own would count against the rate limit.
const schedules = async () =>
	[...context.sim.state.schedules.values()].map(
		({ schedule }) => JSON.parse(JSON.stringify(schedule)) as IDataObject,
	);

describe('Scheduled Scrape Trigger lifecycle', () => {
	it('activation creates a schedule that calls back this trigger with a secret; deactivation deletes it', async () => {
		const node = trigger(onePizzaProfile);
		expect(await node.lifecycle('checkExists')).toBe(false);
		expect(await node.lifecycle('create')).toBe(true);

		const [schedule] = await schedules();
		const state = stateOf(node);
		expect(schedule.schedule_id).toBe(state.scheduleId);
		expect(schedule).toMatchObject({ service: 'rsapi', frequency: 'weekly', disabled: false });
		const queryParams = queryOf(schedule);
		expect(queryParams).toMatchObject({ url: 'https://reviews.example.com/biz/pizza', blocks: 20 });
		const callback = new URL(String(queryParams.callback));
		expect(`${callback.origin}${callback.pathname}`).toBe(node.webhookUrl());
		expect(callback.searchParams.get('secret')).toBe(state.secret);
		expect(String(state.secret)).toMatch(/^[0-9a-f]{48}$/);

		expect(await node.lifecycle('checkExists')).toBe(true);
		expect(await node.lifecycle('delete')).toBe(true);
		expect(await schedules()).toEqual([]);
		expect(state.scheduleId).toBeUndefined();
	});

	it('re-creates the schedule when it was deleted or disabled behind its back', async () => {
		const { node, state } = await created();
		await deleteSchedule(state.scheduleId);
		expect(await node.lifecycle('checkExists')).toBe(false);
		await node.lifecycle('create');
		expect(await schedules()).toHaveLength(1);

		// A disabled one stays, for the watcher to tell, unless Mend Schedule is on.
		const recreated = stateOf(node);
		context.sim.setScheduleDisabled(Number(recreated.scheduleId), true);
		expect(await node.lifecycle('checkExists')).toBe(true);
		expect(context.sim.state.schedules.size).toBe(1);
		const mending = await created({ ...onePizzaProfile, options: { mendSchedule: true } });
		context.sim.setScheduleDisabled(Number(mending.state.scheduleId), true);
		expect(await mending.node.lifecycle('checkExists')).toBe(false);
		expect([...context.sim.state.schedules.keys()]).toEqual([recreated.scheduleId]);
	});

	it.each([400, 403] as const)(
		're-creates the schedule when the service answers %s for the stored one',
		async (status) => {
			const { node, state } = await created();
			const stored = Number(state.scheduleId);
			await deleteSchedule(stored);
			context.sim.configure({ missingSchedule: status });
			expect(await node.lifecycle('checkExists')).toBe(false);
			expect(state.scheduleId).toBeUndefined();
			expect(await node.lifecycle('create')).toBe(true);
			const [fresh] = await schedules();
			expect(fresh.schedule_id).not.toBe(stored);
			expect(state.scheduleId).toBe(fresh.schedule_id);
		},
	);

	it('still fails activation on a server error or a refused key, keeping the stored id', async () => {
		const { node, state } = await created();
		context.sim.injectFault({ api: 'scheduling', method: 'GET', kind: '500', times: 50 });
		await expect(node.lifecycle('checkExists')).rejects.toThrow();
		expect(state.scheduleId).toBeDefined();
		const refused = trigger(onePizzaProfile, undefined, 'wrong-key');
		Object.assign(refused.staticData, { [`node:${NODE}`]: { scheduleId: state.scheduleId } });
		context.sim.clearFaults();
		await expect(refused.lifecycle('checkExists')).rejects.toThrow(/Invalid API key/);
	});

	it('deactivation forgets the schedule even when the delete fails, and logs it', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			const { node, state } = await created();
			const stored = Number(state.scheduleId);
			context.sim.injectFault({ api: 'scheduling', method: 'DELETE', kind: '500', times: 50 });
			expect(await node.lifecycle('delete')).toBe(true);
			expect(state).toEqual({});
			expect(warn).toHaveBeenCalledWith(
				expect.stringContaining(`could not delete schedule ${stored}`),
				expect.objectContaining({ scheduleId: stored, httpCode: '500' }),
			);
			const logged = JSON.stringify(warn.mock.calls);
			expect(logged).not.toContain('engine-key');
			context.sim.clearFaults();
			// The next activation starts clean instead of failing on the old id.
			expect(await node.lifecycle('checkExists')).toBe(false);
			expect(await node.lifecycle('create')).toBe(true);
		} finally {
			warn.mockRestore();
		}
	});

	it('test mode uses the test URL and leaves nothing behind', async () => {
		const node = trigger(onePizzaProfile);
		await node.lifecycle('create', true);
		const [schedule] = await schedules();
		expect(String(queryOf(schedule).callback)).toContain('/webhook-test/');
		await node.lifecycle('delete', true);
		expect(await schedules()).toEqual([]);
	});

	const list = (profiles: string) => ({ collect: 'profileList', frequency: 'daily', profiles });
	it.each([
		[
			{ ...onePizzaProfile, url: '', query: '', placeId: '' },
			'Query Parameters "url", Query Parameters "query" or Query Parameters "place_id" is required',
		],
		[list('[{"url": "x"}'), 'Profiles (JSON List) is not valid JSON'],
		[
			list(JSON.stringify([{ url: 'https://a.example.com/1' }, { place_ID: 'ChIJ' }])),
			'Profiles (JSON List) element 2 "place_ID" is not a profile field: did you mean "place_id"?',
		],
	])('refuses bad settings before creating anything (%#)', async (parameters, error) => {
		await expect(trigger(parameters).lifecycle('create')).rejects.toThrow(error);
		expect(context.sim.requests()).toHaveLength(0);
	});

	it('creates add_bulk and review index schedules with the callback in each profile / the query', async () => {
		await created({
			collect: 'profileList',
			frequency: 'daily',
			profiles: JSON.stringify([{ url: 'https://a.example.com/1' }, { query: 'Pizza' }]),
		});
		await created({
			collect: 'reviewIndex',
			frequency: 'monthly',
			reviewIndexEndpoint: 'reviews',
			reviewIndexParameters: '{"profile":"pizza"}',
		});
		const [bulkSchedule, indexSchedule] = await schedules();
		const body = (bulkSchedule.payload as IDataObject).body as IDataObject[];
		expect(body).toHaveLength(2);
		for (const element of body) expect(String(element.callback)).toContain('secret=');
		expect(indexSchedule).toMatchObject({
			service: 'riapi',
			endpoint: `${context.sim.urls.reviewIndexUrl}/reviews`,
		});
		expect(String(queryOf(indexSchedule).callback)).toContain('secret=');
	});

	it('by default leaves Latest Reviews Count and External Identifier to the service', async () => {
		const node = trigger({ collect: 'profile', url: 'https://reviews.example.com/biz/pizza' });
		expect(await node.lifecycle('create')).toBe(true);
		const [schedule] = await schedules();
		const sent = queryOf(schedule);
		expect(sent.url).toBe('https://reviews.example.com/biz/pizza');
		expect(sent).not.toHaveProperty('blocks');
		expect(sent).not.toHaveProperty('external_identifier');
		expect(await node.lifecycle('delete')).toBe(true);
	});
});

/** Fires the schedule and hands its one delivery, as the receiver got it, to the trigger. */
async function runDelivered(node: Trigger, receiver: Receiver, scheduleId: unknown) {
	await context.sim.fireSchedule(Number(scheduleId));
	await context.sim.waitForDeliveries(1, 5000);
	const [delivery] = receiver.received;
	const url = new URL(delivery.url, receiver.url);
	const received = await node.receive({
		body: delivery.body,
		query: Object.fromEntries(url.searchParams),
	});
	return { delivery, url, received };
}

describe('Scheduled Scrape Trigger deliveries', () => {
	it('a fired schedule delivers to the trigger, which starts the workflow with the payload', async () => {
		await withReceiver(async (receiver) => {
			const { node, state } = await created(onePizzaProfile, receiver.url);
			const { delivery, url, received } = await runDelivered(node, receiver, state.scheduleId);
			expect(received.response.workflowData?.[0][0].json).toMatchObject({
				kind: 'reviewJob',
				scheduleId: state.scheduleId,
				outcome: 'completed',
				payload: { crawl_status: 'complete' },
			});

			// The same delivery again is a repeat; the same job with one review more is an update.
			const query = Object.fromEntries(url.searchParams);
			const repeat = await node.receive({ body: delivery.body, query });
			expect(repeat.response).toEqual({ webhookResponse: { received: true, duplicate: true } });
			const reviews = (delivery.body as IDataObject).reviews as IDataObject[];
			const resynced = { ...delivery.body, reviews: [...reviews, { ...reviews[0], id: 'new' }] };
			const update = await node.receive({ body: resynced, query });
			expect(update.response.workflowData?.[0][0].json).toMatchObject({
				redelivery: 'update',
				outcome: 'completed',
			});
		});
	});

	it.each([[{ secret: 'wrong' }], [{}]])(
		'answers 401 and starts nothing for the secret %j',
		async (query) => {
			const { node } = await created();
			const received = await node.receive({ body: { job_id: 1 }, query });
			expect(received.status).toBe(401);
			expect(received.response.workflowData).toBeUndefined();
		},
	);
});

async function published(parameters: INodeParameters = onePizzaProfile, apiKey?: string) {
	const { node, state } = await created(parameters, undefined, apiKey);
	context.sim.clearRequests();
	const active = await node.activateTrigger();
	return { node, state, active, scheduleId: Number(state.scheduleId) };
}

describe('Recurring Reviews Trigger: watching its schedule', () => {
	const noticesOf = (emitted: INodeExecutionData[][][]) =>
		emitted.map((outputs) => {
			expect(outputs[0]).toEqual([]);
			expect(outputs[1]).toHaveLength(1);
			return outputs[1][0].json;
		});

	it('reads its schedule and nothing else while it is healthy, and tells nothing', async () => {
		const { active, scheduleId } = await published();
		for (let look = 0; look < 3; look++) await active.tick();
		expect(active.emitted).toEqual([]);
		const requests = context.sim.requests();
		expect(requests).toHaveLength(4);
		for (const request of requests) {
			expect(request).toMatchObject({ api: 'scheduling', method: 'GET' });
			expect(request.path).toBe(`/schedules/${scheduleId}`);
		}
	});

	it('tells once when the service disables it after 10 failed runs, and once when it is back', async () => {
		const { active, scheduleId } = await published();
		const failedRun = { kind: 'success-false', api: 'review', path: '/profiles/add' } as const;
		context.sim.injectFault({ ...failedRun, times: 10 });
		for (let run = 0; run < 10; run++) await context.sim.fireSchedule(scheduleId);
		await active.tick();
		await active.tick();
		const [disabled] = noticesOf(active.emitted);
		expect(active.emitted).toHaveLength(1);
		expect(disabled).toMatchObject({
			notice: 'disabled',
			scheduleId,
			frequency: 'weekly',
			lastSuccessfulRun: null,
			scheduleName: 'n8n: Harness trigger workflow',
		});
		expect(disabled.message).toContain('Turn on Options → Mend Schedule');
		expect(Date.parse(String(disabled.noticedAt))).not.toBeNaN();

		context.sim.setScheduleDisabled(scheduleId, false);
		await active.tick();
		await active.tick();
		expect(noticesOf(active.emitted)).toHaveLength(2);
		expect(noticesOf(active.emitted)[1]).toMatchObject({
			notice: 'recovered',
			previousNotice: 'disabled',
			scheduleId,
		});
	});

	it('with Mend Schedule on, replaces a disabled schedule with the same settings and secret, which delivers', async () => {
		await withReceiver(async (receiver) => {
			const mendOn = { ...onePizzaProfile, options: { mendSchedule: true } };
			const { node, state } = await created(mendOn, receiver.url);
			const oldId = Number(state.scheduleId);
			const [old] = await schedules();
			const active = await node.activateTrigger();
			context.sim.setScheduleDisabled(oldId, true);
			await active.tick();
			const [mended] = noticesOf(active.emitted);
			const newId = Number(state.scheduleId);
			expect(newId).not.toBe(oldId);
			expect(mended).toMatchObject({ notice: 'disabled', mended: { scheduleId: newId } });
			const [replacement] = await schedules();
			expect(replacement.schedule_id).toBe(newId);
			expect(replacement.payload).toEqual(old.payload);
			expect(replacement.frequency).toBe(old.frequency);

			// The mend's notice is the only one: the new schedule found healthy is not news.
			await active.tick();
			await active.tick();
			expect(active.emitted).toHaveLength(1);

			const { received } = await runDelivered(node, receiver, newId);
			expect(received.response.workflowData?.[0][0].json).toMatchObject({
				kind: 'reviewJob',
				scheduleId: newId,
			});
		});
	});

	it('with Mend Schedule on, creates a deleted schedule again; a refused create is told once', async () => {
		const { active, state, scheduleId } = await published({
			...onePizzaProfile,
			options: { mendSchedule: true },
		});
		context.sim.deleteScheduleBehindTheBack(scheduleId);
		context.sim.injectFault({ kind: '500', api: 'scheduling', method: 'POST', times: 20 });
		await active.tick();
		await active.tick();
		expect(noticesOf(active.emitted)).toHaveLength(1);
		expect(noticesOf(active.emitted)[0]).toMatchObject({
			notice: 'gone',
			mended: { error: expect.any(String) },
		});
		context.sim.clearFaults();
		await active.tick();
		const newId = Number(state.scheduleId);
		expect(newId).not.toBe(scheduleId);
		expect(noticesOf(active.emitted)[1]).toMatchObject({
			notice: 'gone',
			mended: { scheduleId: newId },
		});
		expect((await schedules()).map((schedule) => schedule.schedule_id)).toEqual([newId]);
	});

	it('looks as often as its frequency asks, or as set; Off registers nothing', async () => {
		const cronsOf = async (parameters: INodeParameters) =>
			(await (await published(parameters)).active).crons;
		for (const [frequency, cron] of [
			['weekly', /^\d+ \d+ \d\/6 \* \* \*$/],
			['daily', /^\d+ \d+ \* \* \* \*$/],
			['monthly', /^\d+ \d+ \d+ \* \* \*$/],
		] as const) {
			const [registered] = await cronsOf({ ...onePizzaProfile, frequency });
			expect(registered).toMatch(cron);
		}
		expect(await cronsOf({ ...onePizzaProfile, options: { scheduleCheck: 'tenSeconds' } })).toEqual(
			['*/10 * * * * *'],
		);
		const off = await published({ ...onePizzaProfile, options: { scheduleCheck: 'off' } });
		expect(off.active.crons).toEqual([]);
		context.sim.setScheduleDisabled(off.scheduleId, true);
		expect(context.sim.requests()).toEqual([]);
	});

	it("a notice leaves on the Schedule Notices output and a delivery on Deliveries, in n8n's engine", async () => {
		const notice = { json: { notice: 'gone', scheduleId: 7 } };
		const delivery = { json: { kind: 'reviewJob', jobId: 1 } };
		for (const [startData, onDeliveries, onNotices] of [
			[[[], [notice]], [], [notice.json]],
			[[[delivery]], [delivery.json], []],
		] as const) {
			const run = await runWorkflow({
				nodes: [{ name: NODE, type: TYPE, parameters: onePizzaProfile }],
				nodeTypes: { [TYPE]: new ScheduledScrapeTrigger() },
				credentialTypes,
				credentials: credentialsFor(context.sim),
				mode: 'trigger',
				startData: startData as never,
			});
			expect(run.status).toBe('success');
			expect(run.json(NODE, 0)).toEqual(onDeliveries);
			expect(run.json(NODE, 1)).toEqual(onNotices);
		}
		expect(context.sim.requests()).toEqual([]);
	});
});

describe('Recurring Reviews Trigger: gone in any words, one notice per event, told when it cannot look', () => {
	const API_KEY = 'engine-key';
	const notices = (active: { emitted: INodeExecutionData[][][] }) =>
		active.emitted.map((outputs) => {
			expect(outputs).toHaveLength(2);
			expect(outputs[0]).toEqual([]);
			return outputs[1].map((item) => item.json);
		});

	const goneNotice = (scheduleId: number) => ({
		notice: 'gone',
		message: `Schedule ${scheduleId} is gone. It no longer exists on the service (deleted outside this workflow): no reviews arrive. Turn on Options → Mend Schedule, or unpublish and publish the workflow again, to get a new one.`,
		scheduleId,
		scheduleName: null,
		frequency: 'weekly',
		lastSuccessfulRun: null,
		noticedAt: expect.any(String),
	});

	it.each([
		['404 "Not found"', { missingSchedule: 404 }],
		['400 naming the id', { missingSchedule: 400, missingScheduleWording: 'namesId' }],
		['400 "schedule not found"', { missingSchedule: 400, missingScheduleWording: 'plain' }],
		['403 "Forbidden"', { missingSchedule: 403 }],
	] as const)(
		'a schedule deleted outside n8n and read as %s is told gone, once',
		async (_, answer) => {
			const { active, scheduleId } = await published();
			context.sim.configure(answer);
			context.sim.deleteScheduleBehindTheBack(scheduleId);
			for (let look = 0; look < 3; look++) await active.tick();
			expect(notices(active)).toEqual([[goneNotice(scheduleId)]]);
			// The list decided: it was asked once per look.
			const lists = context.sim
				.requests()
				.filter((r) => r.method === 'GET' && r.path === '/schedules');
			expect(lists).toHaveLength(3);
		},
	);

	it('a read refused with a 400 for a schedule the list still holds is not gone', async () => {
		const { active, scheduleId } = await published();
		context.sim.injectFault({
			kind: 'refused',
			api: 'scheduling',
			method: 'GET',
			path: `/schedules/${scheduleId}`,
			times: 10,
		});
		await active.tick();
		await active.tick();
		expect(active.emitted).toEqual([]);
		// The list's record is read as the schedule: disabled there is told disabled.
		context.sim.setScheduleDisabled(scheduleId, true);
		await active.tick();
		expect(notices(active).map((items) => items.map((item) => item.notice))).toEqual([
			['disabled'],
		]);
	});

	it.each([
		['400 "schedule not found"', { missingSchedule: 400, missingScheduleWording: 'plain' }],
		['403 "Forbidden"', { missingSchedule: 403 }],
	] as const)(
		'unpublishing takes a delete answered %s for a deleted schedule as done, and one the list still holds as failed',
		async (_, answer) => {
			const warn = jest.spyOn(Container.get(Logger), 'warn');
			try {
				context.sim.configure(answer);
				const gone = await created();
				context.sim.deleteScheduleBehindTheBack(Number(gone.state.scheduleId));
				expect(await gone.node.lifecycle('delete')).toBe(true);
				expect(warn).not.toHaveBeenCalled();

				const kept = await created();
				const keptId = Number(kept.state.scheduleId);
				context.sim.injectFault({ kind: 'refused', api: 'scheduling', method: 'DELETE' });
				expect(await kept.node.lifecycle('delete')).toBe(true);
				expect(warn).toHaveBeenCalledWith(
					expect.stringContaining(`could not delete schedule ${keptId}`),
					expect.objectContaining({ scheduleId: keptId, httpCode: '400' }),
				);
				expect((await schedules()).map((schedule) => schedule.schedule_id)).toEqual([keptId]);
			} finally {
				warn.mockRestore();
			}
		},
	);

	it('a mend is told once, in words that do not name the id: the replacement is not "recovered"', async () => {
		context.sim.configure({ missingSchedule: 400, missingScheduleWording: 'plain' });
		const { active, state, scheduleId } = await published({
			...onePizzaProfile,
			options: { mendSchedule: true },
		});
		context.sim.setScheduleDisabled(scheduleId, true);
		for (let look = 0; look < 4; look++) await active.tick();
		const newId = Number(state.scheduleId);
		expect(newId).not.toBe(scheduleId);
		expect(notices(active)).toEqual([
			[
				{
					notice: 'disabled',
					message: `Schedule ${scheduleId} is disabled. The service disabled it (after 10 failed runs in a row, or when the account ran out of credits): it runs no more, and no reviews arrive. The trigger replaced it with schedule ${newId} (same settings and secret); its first run collects from the start.`,
					scheduleId,
					scheduleName: 'n8n: Harness trigger workflow',
					frequency: 'weekly',
					lastSuccessfulRun: null,
					noticedAt: expect.any(String),
					mended: { scheduleId: newId },
				},
			],
		]);
		// The old one was deleted through the same path as unpublishing.
		expect((await schedules()).map((schedule) => schedule.schedule_id)).toEqual([newId]);
		// A schedule that comes back by itself is still told.
		context.sim.setLastSuccessfulRun(
			newId,
			new Date(Date.now() - 15 * 86_400_000).toISOString().slice(0, 19),
		);
		await active.tick();
		context.sim.setLastSuccessfulRun(newId, new Date().toISOString().slice(0, 19));
		await active.tick();
		expect(
			notices(active)
				.slice(1)
				.map((items) => items[0].notice),
		).toEqual(['silent', 'recovered']);
	});

	it('after a restart, a problem already told is not told again; its end is', async () => {
		const first = await published();
		context.sim.setScheduleDisabled(first.scheduleId, true);
		await first.active.tick();
		expect(notices(first.active).map((items) => items[0].notice)).toEqual(['disabled']);

		// n8n restarts: a new process with the static data its database holds.
		const node = trigger(onePizzaProfile, undefined, undefined, first.active.savedStaticData());
		expect(await node.lifecycle('checkExists')).toBe(true);
		const active = await node.activateTrigger();
		await active.tick();
		expect(active.emitted).toEqual([]);

		context.sim.setScheduleDisabled(first.scheduleId, false);
		await active.tick();
		await active.tick();
		expect(notices(active)).toEqual([
			[
				{
					notice: 'recovered',
					message: `Schedule ${first.scheduleId} is running again (it was disabled).`,
					scheduleId: first.scheduleId,
					scheduleName: 'n8n: Harness trigger workflow',
					frequency: 'weekly',
					lastSuccessfulRun: null,
					noticedAt: expect.any(String),
					previousNotice: 'disabled',
				},
			],
		]);
	});

	const unreadable = (scheduleId: number, fields: IDataObject) => ({
		notice: 'unreadable',
		message: expect.any(String),
		scheduleId,
		scheduleName: null,
		frequency: expect.any(String),
		lastSuccessfulRun: null,
		noticedAt: expect.any(String),
		serviceMessage: expect.any(String),
		details: expect.any(String),
		httpCode: expect.any(String),
		failingSince: expect.any(String),
		...fields,
	});
	const readable = (scheduleId: number, fields: IDataObject = {}) => ({
		notice: 'readable',
		message: `The trigger can read schedule ${scheduleId} again: it is healthy.`,
		scheduleId,
		scheduleName: 'n8n: Harness trigger workflow',
		frequency: expect.any(String),
		lastSuccessfulRun: null,
		noticedAt: expect.any(String),
		previousNotice: 'unreadable',
		...fields,
	});

	it('a refused key (401) is told at once, once, with what to do, and its end once', async () => {
		const { active, scheduleId } = await published();
		context.sim.configure({ apiKey: 'rotated-key' });
		for (let look = 0; look < 3; look++) await active.tick();
		expect(notices(active)).toEqual([
			[
				unreadable(scheduleId, {
					message: expect.stringMatching(
						new RegExp(
							`^The trigger cannot read schedule ${scheduleId}: the service refused the Scraping API credential \\(Invalid API key\\)\\. Check the credential`,
						),
					),
					serviceMessage: 'Invalid API key',
					httpCode: '401',
				}),
			],
		]);
		context.sim.configure({ apiKey: API_KEY });
		await active.tick();
		await active.tick();
		expect(notices(active).slice(1)).toEqual([[readable(scheduleId, { frequency: 'weekly' })]]);
		expect(JSON.stringify(active.emitted)).not.toMatch(/engine-key|rotated-key/);
	});

	it('server errors are told once they outlast the silence allowance (48 hours for daily), and their end once', async () => {
		// A key of its own gives this test a request pacer of its own: the clock it moves forward and
		// back would otherwise hold the pacer of the other tests' key until hours from now.
		context.sim.configure({ apiKey: 'clock-key' });
		const realNow = Date.now.bind(Date);
		let hoursLater = 0;
		const clock = jest
			.spyOn(Date, 'now')
			.mockImplementation(() => realNow() + hoursLater * 3_600_000);
		try {
			const { active, scheduleId } = await published(
				{ ...onePizzaProfile, frequency: 'daily' },
				'clock-key',
			);
			context.sim.injectFault({ kind: '500', api: 'scheduling', method: 'GET', times: 1000 });
			await active.tick();
			hoursLater = 47.9;
			await active.tick();
			expect(active.emitted).toEqual([]);
			hoursLater = 48.1;
			await active.tick();
			hoursLater = 60;
			await active.tick();
			const told = notices(active);
			expect(told).toEqual([[unreadable(scheduleId, { frequency: 'daily', httpCode: '500' })]]);
			const [notice] = told[0];
			expect(String(notice.message)).toContain("Check the credential's Scheduling URL");
			expect(
				Date.parse(String(notice.noticedAt)) - Date.parse(String(notice.failingSince)),
			).toBeGreaterThan(48 * 3_600_000);

			context.sim.clearFaults();
			// The schedule last ran within the allowance (its runs are the service's, not the reads).
			context.sim.setLastSuccessfulRun(scheduleId, new Date(Date.now()).toISOString().slice(0, 19));
			await active.tick();
			await active.tick();
			expect(notices(active).slice(1)).toEqual([
				[readable(scheduleId, { frequency: 'daily', lastSuccessfulRun: expect.any(String) })],
			]);
		} finally {
			clock.mockRestore();
		}
	});

	it('after a restart, a trigger that told it could not read tells once that it can', async () => {
		const first = await published();
		context.sim.configure({ apiKey: 'rotated-key' });
		await first.active.tick();
		expect(notices(first.active).map((items) => items[0].notice)).toEqual(['unreadable']);
		context.sim.configure({ apiKey: API_KEY });

		const node = trigger(onePizzaProfile, undefined, undefined, first.active.savedStaticData());
		expect(await node.lifecycle('checkExists')).toBe(true);
		const active = await node.activateTrigger();
		await active.tick();
		expect(notices(active)).toEqual([[readable(first.scheduleId, { frequency: 'weekly' })]]);
	});
});
