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

/** Publishes a watching workflow; gives its id and the schedule its activation created. */
async function publishWatched(name: string, options: Record<string, unknown> = {}) {
	const id = await activateChain(client, name, [watchingTrigger(options)]);
	activated.add(id);
	const schedule = await until(`the schedule of "${name}"`, () =>
		schedules().find((kept) => kept.schedule_name === `n8n: ${name}`),
	);
	return { id, scheduleId: schedule.schedule_id };
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

/** The service's log from `mark` on, as method and path, of the scheduling API. */
const schedulingRequestsSince = (mark: number) =>
	simulator
		.requests()
		.filter((request) => request.seq > mark && request.api === 'scheduling')
		.map((request) => `${request.method} ${request.api}${request.path}`);

const lastSeq = () => Math.max(0, ...simulator.requests().map((request) => request.seq));

/** Runs a scenario, naming it in what it throws: three run at once in one test. */
async function scenario(name: string, body: () => Promise<void>): Promise<void> {
	try {
		await body();
	} catch (error) {
		if (error instanceof Error) error.message = `${name}: ${error.message}`;
		throw error;
	}
}

async function failTenRuns(scheduleId: number): Promise<void> {
	// Scenarios running at once each add ten faults and fire ten runs: every run meets one.
	simulator.injectFault({ kind: 'success-false', api: 'review', path: '/profiles/add', times: 10 });
	for (let run = 0; run < 10; run++) await simulator.fireSchedule(scheduleId);
	expect(simulator.state.schedules.get(scheduleId)?.schedule.disabled).toBe(true);
}

async function toldDisabledThenGoneThenUnpublished(id: string, scheduleId: number, name: string) {
	await failTenRuns(scheduleId);
	const [disabled] = await noticesAfter(id, 1);
	expect(disabled).toMatchObject({
		notice: 'disabled',
		scheduleId,
		scheduleName: `n8n: ${name}`,
		frequency: 'daily',
	});
	expect(String(disabled.message)).toContain('Mend Schedule');

	simulator.deleteScheduleBehindTheBack(scheduleId);
	expect((await noticesAfter(id, 2))[1]).toMatchObject({ notice: 'gone', scheduleId });

	// Unpublishing deletes the schedule as before (gone already: the service refuses, and the list
	// confirms it), after the call returns; from then on nothing more is read.
	const unpublishing = lastSeq();
	await client.deactivate(id);
	activated.delete(id);
	await until('the delete of unpublishing, and the list after it', () => {
		const since = schedulingRequestsSince(unpublishing);
		const deleted = since.indexOf(`DELETE scheduling/schedules/${scheduleId}`);
		return deleted >= 0 && since.indexOf('GET scheduling/schedules', deleted) > deleted
			? true
			: undefined;
	});
	const unpublishedFrom = lastSeq();
	await new Promise((resolve) => setTimeout(resolve, LOOK_MS + 1_500));
	const ofThisSchedule = new RegExp(`/schedules/${scheduleId}$`);
	expect(schedulingRequestsSince(unpublishedFrom).filter((r) => ofThisSchedule.test(r))).toEqual(
		[],
	);
}

async function toldGoneOnAPlainNotFound() {
	const name = 'e2e schedule watch plain not found';
	const { id, scheduleId } = await publishWatched(name);
	const deletedFrom = lastSeq();
	simulator.deleteScheduleBehindTheBack(scheduleId);
	expect(await noticesAfter(id, 1)).toEqual([
		expect.objectContaining({ notice: 'gone', scheduleId }),
	]);
	// The 400 does not name the schedule: the list decided.
	expect(schedulingRequestsSince(deletedFrom)).toContain('GET scheduling/schedules');
	await expectExecutionCountStays(client, id, 1, 2 * LOOK_MS + 1_500);
}

async function mendedAndToldOnce() {
	const name = 'e2e schedule watch mend';
	const { id, scheduleId: oldId } = await publishWatched(name, { mendSchedule: true });
	await failTenRuns(oldId);
	const [mended] = await noticesAfter(id, 1);
	expect(mended).toMatchObject({ notice: 'disabled', scheduleId: oldId });
	const newId = (mended.mended as { scheduleId: number }).scheduleId;
	expect(newId).not.toBe(oldId);
	await expectExecutionCountStays(client, id, 1, 2 * LOOK_MS + 1_500);
	const ours = schedules().filter((kept) => kept.schedule_name === `n8n: ${name}`);
	expect(ours.map((kept) => kept.schedule_id)).toEqual([newId]);
}

describe('Recurring Reviews Trigger watching its schedule in a published workflow', () => {
	// Each workflow's notices are its own, so three watch at once (the waits are n8n's own clock);
	// the service answers a missing schedule with a 400 that does not name it, for all of them.
	it('reads only its schedule while healthy; tells disabled, gone (also on a 400 "schedule not found"), a mend once; stops reading when unpublished', async () => {
		const name = 'e2e schedule watch';
		const { id, scheduleId } = await publishWatched(name);
		const healthyFrom = lastSeq();
		await expectExecutionCountStays(client, id, 0, LOOK_MS + 1_500);
		// Alone so far: every request of the scheduling API is this trigger's.
		const reads = schedulingRequestsSince(healthyFrom);
		expect(reads.length).toBeGreaterThan(0);
		// One watcher, on the leader: a look per 10 s, not one per n8n process.
		expect(reads.length).toBeLessThanOrEqual(2);
		expect(new Set(reads)).toEqual(new Set([`GET scheduling/schedules/${scheduleId}`]));

		simulator.configure({ missingSchedule: 400, missingScheduleWording: 'plain' });
		await Promise.all([
			scenario('disabled, gone, unpublished', () =>
				toldDisabledThenGoneThenUnpublished(id, scheduleId, name),
			),
			scenario('gone on a plain 400', toldGoneOnAPlainNotFound),
			scenario('mended', mendedAndToldOnce),
		]);
	});

	it('a refused key is told at once as unreadable, with what to do, and once when reads work again', async () => {
		const { id, scheduleId } = await publishWatched('e2e schedule watch key');
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
