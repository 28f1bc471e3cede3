import { ReviewJobCallback, type ScheduleBody } from '../../simulator/schemas';
import { asDelivered, deliveryMarks } from './harness/delivered';
import type { WorkflowNode } from './harness/client';
import {
	activateChain,
	expectExecutionCountStays,
	nodeOutput,
	packageNode,
	postToWebhook,
	productionUrl,
	webhookBase,
} from './harness/workflows';
import { useE2e } from './harness/suite';

const { client, state, simulator, credentials, activated } = useE2e({
	credentials: 'triggers e2e',
});

const TRIGGER = 'Scheduled Scrape Trigger';

const schedules = (): ScheduleBody[] =>
	[...simulator.state.schedules.values()].map((record) => record.schedule);

/** Activation (and with it the trigger's `create`) completes after the API call returns. */
async function waitForSchedules(
	check: (current: ScheduleBody[]) => boolean,
	what: string,
	timeoutMs = 10_000,
): Promise<ScheduleBody[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const current = schedules();
		if (check(current)) return current;
		if (Date.now() > deadline) {
			throw new Error(`${what}: not so after ${timeoutMs} ms (${JSON.stringify(current)})`);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** Retries `check` until it passes or `timeoutMs` has gone by (then its last failure is thrown). */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await check();
		} catch (error) {
			if (Date.now() > deadline) throw error;
			await new Promise((r) => setTimeout(r, 200));
		}
	}
}

async function activate(id: string): Promise<void> {
	await client.activate(id);
	activated.add(id);
}

async function deactivate(id: string): Promise<void> {
	await client.deactivate(id);
	activated.delete(id);
}

function scheduledTrigger(): WorkflowNode {
	return packageNode(
		'scheduledScrapeTrigger',
		TRIGGER,
		{
			collect: 'profile',
			frequency: 'weekly',
			url: 'https://www.example.com/biz/e2e-scheduled',
			blocks: 4,
			externalIdentifier: 'e2e-scheduled',
		},
		{ scrapingApi: credentials.scrapingApi },
	);
}

function callbackOf(schedule: ScheduleBody): URL {
	return new URL(String(schedule.payload.query_params.callback));
}

async function staticStateOf(workflowId: string) {
	const { staticData } = (await client.getWorkflow(workflowId)) as unknown as {
		staticData: Record<string, Record<string, unknown>> | null;
	};
	return staticData?.[`node:${TRIGGER}`] ?? {};
}

/** Fires the schedule, then waits for the review job's delivery and the execution it starts. */
async function fireAndReceive(workflowId: string, schedule: ScheduleBody, executions: number) {
	// n8n saves the secret the trigger's create() stored only after the schedule exists: a delivery
	// in between meets the secret of before (seen under load as a 401).
	await eventually(async () => {
		expect((await staticStateOf(workflowId)).secret).toBe(
			callbackOf(schedule).searchParams.get('secret'),
		);
	});
	const fired = await simulator.fireSchedule(schedule.schedule_id);
	expect(fired.response.status).toBe(200);
	const deliveries = await simulator.waitForDeliveries(executions, 20_000);
	const delivery = deliveries[executions - 1];
	expect(delivery).toEqual(
		expect.objectContaining({
			url: callbackOf(schedule).href,
			state: 'delivered',
			finalStatus: 200,
		}),
	);
	const [execution] = await client.waitForExecutions(workflowId, executions, 20_000);
	expect(execution.status).toBe('success');
	return { delivery, output: nodeOutput(execution, TRIGGER) };
}

describe('Scheduled Scrape Trigger in an activated workflow', () => {
	it('creates its schedule, runs on every delivery, refuses a wrong secret, deletes the schedule when deactivated', async () => {
		const trigger = scheduledTrigger();
		const webhookUrl = productionUrl(webhookBase(state), trigger, 'scheduled');
		const id = await activateChain(client, 'e2e scheduled scrape', [trigger]);
		activated.add(id);

		const [schedule] = await waitForSchedules((s) => s.length === 1, 'one schedule');
		expect(schedule).toEqual(
			expect.objectContaining({
				service: 'rsapi',
				endpoint: `${simulator.urls.baseUrl}/api/v2/profiles/add`,
				frequency: 'weekly',
				schedule_name: 'n8n: e2e scheduled scrape',
				disabled: false,
			}),
		);
		const { callback, ...target } = schedule.payload.query_params;
		expect(target).toEqual({
			url: 'https://www.example.com/biz/e2e-scheduled',
			blocks: 4,
			external_identifier: 'e2e-scheduled',
		});
		const callbackUrl = new URL(String(callback));
		expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(webhookUrl);
		const secret = callbackUrl.searchParams.get('secret');
		expect(secret).toMatch(/^[0-9a-f]{48}$/);
		// n8n saves the trigger's static data once its activation hooks are done.
		await eventually(async () =>
			expect(await staticStateOf(id)).toEqual({
				scheduleId: schedule.schedule_id,
				secret,
				callbackBase: webhookUrl,
				// Whence the watcher counts a silence before the schedule's first run.
				createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
			}),
		);

		const { delivery, output } = await fireAndReceive(id, schedule, 1);
		const payload = ReviewJobCallback.parse(delivery.payload);
		expect(payload.external_identifier).toBe('e2e-scheduled');
		expect(payload.reviews.length).toBeGreaterThan(0);
		expect(payload.reviews.length).toBeLessThanOrEqual(4);
		expect(output).toEqual([
			{
				kind: 'reviewJob',
				id: String(payload.job_id),
				scheduleId: schedule.schedule_id,
				outcome: 'completed',
				payload: asDelivered(delivery.payload),
				...deliveryMarks('reviewJob', String(payload.job_id), delivery.payload),
			},
		]);

		const refused = { status: 401, body: { message: 'Invalid or missing callback secret' } };
		expect(await postToWebhook(`${webhookUrl}?secret=${'0'.repeat(48)}`, payload)).toEqual(refused);
		expect(await postToWebhook(webhookUrl, payload)).toEqual(refused);
		await expectExecutionCountStays(client, id, 1);

		await fireAndReceive(id, schedule, 2);

		await deactivate(id);
		await waitForSchedules((s) => s.length === 0, 'schedule deleted');
		await eventually(async () => {
			expect(await staticStateOf(id)).toEqual({});
			expect((await postToWebhook(callbackUrl.href, payload, { timeoutMs: 0 })).status).toBe(404);
		});
	});

	it('comes back with a new schedule after its schedule was deleted or disabled behind its back', async () => {
		const trigger = scheduledTrigger();
		const webhookUrl = productionUrl(webhookBase(state), trigger, 'scheduled');
		const id = await activateChain(client, 'e2e scheduled scrape re-created', [trigger]);
		activated.add(id);
		const [first] = await waitForSchedules((s) => s.length === 1, 'first schedule');

		const deleted = await fetch(`${simulator.urls.schedulingUrl}/schedules/${first.schedule_id}`, {
			method: 'DELETE',
			headers: { 'x-api-key': simulator.config.apiKey },
		});
		expect(deleted.status).toBe(200);
		// Deleting what is already gone must not make deactivation fail.
		await deactivate(id);
		await activate(id);
		const [second] = await waitForSchedules(
			(s) => s.length === 1 && s[0].schedule_id !== first.schedule_id,
			'second schedule',
		);
		expect(second.disabled).toBe(false);
		expect(callbackOf(second).searchParams.get('secret')).not.toBe(
			callbackOf(first).searchParams.get('secret'),
		);
		const { output } = await fireAndReceive(id, second, 1);
		expect(output[0].scheduleId).toBe(second.schedule_id);
		const old = await postToWebhook(callbackOf(first).href, { job_id: 1, reviews: [] });
		expect(old.status).toBe(401);

		simulator.setScheduleDisabled(second.schedule_id, true);
		await deactivate(id);
		await activate(id);
		const [third] = await waitForSchedules(
			(s) => s.length === 1 && s[0].schedule_id !== second.schedule_id,
			'third schedule, and the disabled one gone',
		);
		expect(third.disabled).toBe(false);
		expect(`${callbackOf(third).origin}${callbackOf(third).pathname}`).toBe(webhookUrl);
		const { output: again } = await fireAndReceive(id, third, 2);
		expect(again[0].scheduleId).toBe(third.schedule_id);
	});
});
