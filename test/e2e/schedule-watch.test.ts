import type { ScheduleBody } from '../../simulator/schemas';
import type { Execution } from './harness/client';
import {
	activateChain,
	expectExecutionCountStays,
	nodeRun,
	packageNode,
} from './harness/workflows';
import { useE2e } from './harness/suite';

// Each test publishes its own workflow: the watcher's notices are counted per workflow.
const { client, simulator, credentials, activated } = useE2e({
	credentials: 'schedule watch e2e',
});

const TRIGGER = 'Recurring Reviews Trigger';
/** Options → Schedule Check → Every 10 Seconds: a change is told within one look. */
const LOOK_MS = 10_000;
const WITHIN_A_LOOK_MS = LOOK_MS + 15_000;

function watchingTrigger(options: Record<string, unknown> = {}) {
	return packageNode(
		'scheduledScrapeTrigger',
		TRIGGER,
		{
			collect: 'profile',
			frequency: 'daily',
			url: 'https://www.example.com/biz/e2e-watched',
			options: { scheduleCheck: 'tenSeconds', ...options },
		},
		{ scrapingApi: credentials.scrapingApi },
	);
}

const schedules = (): ScheduleBody[] =>
	[...simulator.state.schedules.values()].map((record) => record.schedule);

async function until<T>(what: string, get: () => T | undefined, timeoutMs = 15_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = get();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** The trigger's two outputs in an execution: deliveries, then schedule notices. */
function outputsOf(execution: Execution) {
	const main = nodeRun(execution, TRIGGER).data?.main ?? [];
	const json = (index: number) => (main[index] ?? []).map((item) => item.json);
	return { deliveries: json(0), notices: json(1) };
}

/** Every notice the workflow received, oldest first, once `count` executions have ended. */
async function noticesAfter(workflowId: string, count: number) {
	const executions = await client.waitForExecutions(workflowId, count, WITHIN_A_LOOK_MS);
	expect(executions).toHaveLength(count);
	return executions
		.slice()
		.reverse()
		.flatMap((execution) => outputsOf(execution).notices);
}

/** The service's log from `mark` on, as method and path. */
const requestsSince = (mark: number) =>
	simulator
		.requests()
		.filter((request) => request.seq > mark)
		.map((request) => `${request.method} ${request.api}${request.path}`);

const lastSeq = () => Math.max(0, ...simulator.requests().map((request) => request.seq));

async function failTenRuns(scheduleId: number): Promise<void> {
	simulator.injectFault({ kind: 'success-false', api: 'review', path: '/profiles/add', times: 10 });
	for (let run = 0; run < 10; run++) await simulator.fireSchedule(scheduleId);
	expect(simulator.state.schedules.get(scheduleId)?.schedule.disabled).toBe(true);
}

describe('Recurring Reviews Trigger watching its schedule in a published workflow', () => {
	it('reads only its schedule while it is healthy; tells when the service disables it and when it is gone; stops reading when unpublished', async () => {
		const id = await activateChain(client, 'e2e schedule watch', [watchingTrigger()]);
		activated.add(id);
		const [schedule] = await until('one schedule', () =>
			schedules().length === 1 ? schedules() : undefined,
		);
		const scheduleId = schedule.schedule_id;
		const healthyFrom = lastSeq();
		await expectExecutionCountStays(client, id, 0, LOOK_MS + 1_500);
		const reads = requestsSince(healthyFrom);
		expect(reads.length).toBeGreaterThan(0);
		// One watcher, on the leader: a look per 10 s, not one per n8n process.
		expect(reads.length).toBeLessThanOrEqual(2);
		expect(new Set(reads)).toEqual(new Set([`GET scheduling/schedules/${scheduleId}`]));

		await failTenRuns(scheduleId);
		const [disabled] = await noticesAfter(id, 1);
		expect(disabled).toMatchObject({
			notice: 'disabled',
			scheduleId,
			scheduleName: 'n8n: e2e schedule watch',
			frequency: 'daily',
		});
		expect(String(disabled.message)).toContain('Mend Schedule');

		simulator.deleteScheduleBehindTheBack(scheduleId);
		expect((await noticesAfter(id, 2))[1]).toMatchObject({ notice: 'gone', scheduleId });

		// Unpublishing deletes the schedule as before (gone already: the service answers 404, and the
		// list confirms it), after the call returns; from then on nothing more is read.
		const unpublishing = lastSeq();
		await client.deactivate(id);
		activated.delete(id);
		await until('the delete of unpublishing, and the list after its 404', () => {
			const since = requestsSince(unpublishing);
			const deleted = since.indexOf(`DELETE scheduling/schedules/${scheduleId}`);
			return deleted >= 0 && since.indexOf('GET scheduling/schedules', deleted) > deleted
				? true
				: undefined;
		});
		const unpublishedFrom = lastSeq();
		await new Promise((resolve) => setTimeout(resolve, LOOK_MS + 1_500));
		expect(requestsSince(unpublishedFrom)).toEqual([]);
	});

	it('a schedule deleted outside n8n and read as 400 "schedule not found" is told gone, once', async () => {
		simulator.configure({ missingSchedule: 400, missingScheduleWording: 'plain' });
		const id = await activateChain(client, 'e2e schedule watch plain not found', [
			watchingTrigger(),
		]);
		activated.add(id);
		const [schedule] = await until('one schedule', () =>
			schedules().length === 1 ? schedules() : undefined,
		);
		const scheduleId = schedule.schedule_id;
		const deletedFrom = lastSeq();
		simulator.deleteScheduleBehindTheBack(scheduleId);
		expect(await noticesAfter(id, 1)).toEqual([
			expect.objectContaining({ notice: 'gone', scheduleId }),
		]);
		// The 400 sent the trigger to the list, which decided.
		expect(requestsSince(deletedFrom)).toContain('GET scheduling/schedules');
		await expectExecutionCountStays(client, id, 1, 2 * LOOK_MS + 1_500);
	});

	it('with Mend Schedule on, a disabled schedule is replaced and told once: no "recovered" for the new one', async () => {
		const id = await activateChain(client, 'e2e schedule watch mend', [
			watchingTrigger({ mendSchedule: true }),
		]);
		activated.add(id);
		const [schedule] = await until('one schedule', () =>
			schedules().length === 1 ? schedules() : undefined,
		);
		const oldId = schedule.schedule_id;
		await failTenRuns(oldId);
		const [mended] = await noticesAfter(id, 1);
		expect(mended).toMatchObject({ notice: 'disabled', scheduleId: oldId });
		const newId = (mended.mended as { scheduleId: number }).scheduleId;
		expect(newId).not.toBe(oldId);
		await expectExecutionCountStays(client, id, 1, 2 * LOOK_MS + 1_500);
		expect(schedules().map((kept) => kept.schedule_id)).toEqual([newId]);
	});

	it('a refused key is told at once as unreadable, with what to do, and once when reads work again', async () => {
		const id = await activateChain(client, 'e2e schedule watch key', [watchingTrigger()]);
		activated.add(id);
		const [schedule] = await until('one schedule', () =>
			schedules().length === 1 ? schedules() : undefined,
		);
		const scheduleId = schedule.schedule_id;
		const key = simulator.config.apiKey;
		// The key rotated on the service's side, not in n8n.
		simulator.configure({ apiKey: 'rotated-e2e-key' });
		const [unreadable] = await noticesAfter(id, 1);
		expect(unreadable).toMatchObject({
			notice: 'unreadable',
			scheduleId,
			httpCode: '401',
			serviceMessage: 'Invalid API key',
		});
		expect(String(unreadable.message)).toContain('Check the credential');
		await expectExecutionCountStays(client, id, 1, LOOK_MS + 1_500);
		simulator.configure({ apiKey: key });
		expect((await noticesAfter(id, 2))[1]).toMatchObject({
			notice: 'readable',
			previousNotice: 'unreadable',
			scheduleId,
		});
		const executions = await client.waitForExecutions(id, 2, WITHIN_A_LOOK_MS);
		expect(JSON.stringify(executions)).not.toContain(key);
	});
});
