import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { ScheduledScrapeTrigger } from '../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { credentialTypes, credentialsFor, startReceiver, useSimulator } from './fixtures';
import { triggerHarness } from './harness';

const context = useSimulator();
const TYPE = 'n8n-nodes-review-scraping.scheduledScrapeTrigger';
const NODE = 'Scheduled Scrape Trigger';

function trigger(parameters: INodeParameters, baseUrl?: string) {
	return triggerHarness({
		node: NODE,
		nodes: [{ name: NODE, type: TYPE, parameters, webhookId: 'trigger-webhook-id' }],
		nodeTypes: { [TYPE]: new ScheduledScrapeTrigger() },
		credentialTypes,
		credentials: credentialsFor(context.sim),
		baseUrl,
	});
}

const onePizzaProfile = {
	collect: 'profile',
	frequency: 'weekly',
	url: 'https://reviews.example.com/biz/pizza',
	blocks: 20,
};

const schedules = async () =>
	(
		(await fetch(`${context.sim.urls.schedulingUrl}/schedules`, {
			headers: { 'x-api-key': 'engine-key' },
		}).then((r) => r.json())) as { results: IDataObject[] }
	).results;

describe('Scheduled Scrape Trigger lifecycle', () => {
	it('activation creates a schedule that calls back this trigger with a secret; deactivation deletes it', async () => {
		const node = trigger(onePizzaProfile);
		expect(await node.lifecycle('checkExists')).toBe(false);
		expect(await node.lifecycle('create')).toBe(true);

		const [schedule] = await schedules();
		const state = node.staticData[`node:${NODE}`] as IDataObject;
		expect(schedule.schedule_id).toBe(state.scheduleId);
		expect(schedule).toMatchObject({ service: 'rsapi', frequency: 'weekly', disabled: false });
		const queryParams = (schedule.payload as IDataObject).query_params as IDataObject;
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
		const node = trigger(onePizzaProfile);
		await node.lifecycle('create');
		const state = node.staticData[`node:${NODE}`] as IDataObject;
		await fetch(`${context.sim.urls.schedulingUrl}/schedules/${state.scheduleId}`, {
			method: 'DELETE',
			headers: { 'x-api-key': 'engine-key' },
		});
		expect(await node.lifecycle('checkExists')).toBe(false);
		await node.lifecycle('create');
		expect(await schedules()).toHaveLength(1);

		const recreated = node.staticData[`node:${NODE}`] as IDataObject;
		context.sim.setScheduleDisabled(Number(recreated.scheduleId), true);
		expect(await node.lifecycle('checkExists')).toBe(false);
		expect(await schedules()).toEqual([]);
	});

	it.each([400, 403] as const)(
		're-creates the schedule when the service answers %s for the stored one',
		async (status) => {
			const node = trigger(onePizzaProfile);
			await node.lifecycle('create');
			const state = node.staticData[`node:${NODE}`] as IDataObject;
			const stored = Number(state.scheduleId);
			await fetch(`${context.sim.urls.schedulingUrl}/schedules/${stored}`, {
				method: 'DELETE',
				headers: { 'x-api-key': 'engine-key' },
			});
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
		const node = trigger(onePizzaProfile);
		await node.lifecycle('create');
		const state = node.staticData[`node:${NODE}`] as IDataObject;
		context.sim.injectFault({ api: 'scheduling', method: 'GET', kind: '500', times: 50 });
		await expect(node.lifecycle('checkExists')).rejects.toThrow();
		expect(state.scheduleId).toBeDefined();
		const refused = triggerHarness({
			node: NODE,
			nodes: [{ name: NODE, type: TYPE, parameters: onePizzaProfile, webhookId: 'w2' }],
			nodeTypes: { [TYPE]: new ScheduledScrapeTrigger() },
			credentialTypes,
			credentials: credentialsFor(context.sim, { apiKey: 'wrong-key' }),
		});
		Object.assign(refused.staticData, { [`node:${NODE}`]: { scheduleId: state.scheduleId } });
		context.sim.clearFaults();
		await expect(refused.lifecycle('checkExists')).rejects.toThrow(/Invalid API key/);
	});

	it('deactivation forgets the schedule even when the delete fails, and logs it', async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			const node = trigger(onePizzaProfile);
			await node.lifecycle('create');
			const state = node.staticData[`node:${NODE}`] as IDataObject;
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
		expect(
			String(
				(schedule.payload as IDataObject).query_params &&
					((schedule.payload as IDataObject).query_params as IDataObject).callback,
			),
		).toContain('/webhook-test/');
		await node.lifecycle('delete', true);
		expect(await schedules()).toEqual([]);
	});

	it('refuses bad settings before creating anything', async () => {
		const node = trigger({ ...onePizzaProfile, url: '', query: '', placeId: '' });
		await expect(node.lifecycle('create')).rejects.toThrow(
			'Query Parameters "url", Query Parameters "query" or Query Parameters "place_id" is required',
		);
		const list = trigger({ collect: 'profileList', frequency: 'daily', profiles: '[{"url": "x"}' });
		await expect(list.lifecycle('create')).rejects.toThrow(
			'Profiles (JSON List) is not valid JSON',
		);
		const misspelt = trigger({
			collect: 'profileList',
			frequency: 'daily',
			profiles: JSON.stringify([{ url: 'https://a.example.com/1' }, { place_ID: 'ChIJ' }]),
		});
		await expect(misspelt.lifecycle('create')).rejects.toThrow(
			'Profiles (JSON List) element 2 "place_ID" is not a profile field: did you mean "place_id"?',
		);
		expect(context.sim.requests()).toHaveLength(0);
	});

	it('creates add_bulk and review index schedules with the callback in each profile / the query', async () => {
		const bulk = trigger({
			collect: 'profileList',
			frequency: 'daily',
			profiles: JSON.stringify([{ url: 'https://a.example.com/1' }, { query: 'Pizza' }]),
		});
		await bulk.lifecycle('create');
		const index = trigger({
			collect: 'reviewIndex',
			frequency: 'monthly',
			reviewIndexEndpoint: 'reviews',
			reviewIndexParameters: '{"profile":"pizza"}',
		});
		await index.lifecycle('create');
		const [bulkSchedule, indexSchedule] = await schedules();
		const body = (bulkSchedule.payload as IDataObject).body as IDataObject[];
		expect(body).toHaveLength(2);
		for (const element of body) expect(String(element.callback)).toContain('secret=');
		expect(indexSchedule).toMatchObject({
			service: 'riapi',
			endpoint: `${context.sim.urls.reviewIndexUrl}/reviews`,
		});
		expect(
			String(((indexSchedule.payload as IDataObject).query_params as IDataObject).callback),
		).toContain('secret=');
	});
});

describe('Scheduled Scrape Trigger deliveries', () => {
	it('a fired schedule delivers to the trigger, which starts the workflow with the payload', async () => {
		const receiver = await startReceiver();
		try {
			const node = trigger(onePizzaProfile, receiver.url);
			await node.lifecycle('create');
			const state = node.staticData[`node:${NODE}`] as IDataObject;
			await context.sim.fireSchedule(Number(state.scheduleId));
			await context.sim.waitForDeliveries(1, 5000);
			const [delivery] = receiver.received;
			const url = new URL(delivery.url, receiver.url);
			const received = await node.receive({
				body: delivery.body,
				query: Object.fromEntries(url.searchParams),
			});
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
			const job = delivery.body as IDataObject;
			const resynced = {
				...job,
				reviews: [
					...(job.reviews as IDataObject[]),
					{ ...(job.reviews as IDataObject[])[0], id: 'new' },
				],
			};
			const update = await node.receive({ body: resynced, query });
			expect(update.response.workflowData?.[0][0].json).toMatchObject({
				redelivery: 'update',
				outcome: 'completed',
			});
		} finally {
			await receiver.close();
		}
	});

	it.each([[{ secret: 'wrong' }], [{}]])(
		'answers 401 and starts nothing for the secret %j',
		async (query) => {
			const node = trigger(onePizzaProfile);
			await node.lifecycle('create');
			const received = await node.receive({ body: { job_id: 1 }, query });
			expect(received.status).toBe(401);
			expect(received.response.workflowData).toBeUndefined();
		},
	);
});

describe('Recurring Reviews Trigger: what its defaults send', () => {
	it('leaves Latest Reviews Count and External Identifier to the service until they are set', async () => {
		const node = trigger({ collect: 'profile', url: 'https://reviews.example.com/biz/pizza' });
		expect(await node.lifecycle('create')).toBe(true);
		const [schedule] = await schedules();
		const sent = (schedule.payload as IDataObject).query_params as IDataObject;
		expect(sent.url).toBe('https://reviews.example.com/biz/pizza');
		expect(sent).not.toHaveProperty('blocks');
		expect(sent).not.toHaveProperty('external_identifier');
		expect(await node.lifecycle('delete')).toBe(true);
	});
});
