import type { ScheduleBody } from '../../simulator/schemas';
import type { Execution } from './harness/client';
import { loadExamples, prepareExample } from './harness/examples';
import {
	activateChain,
	expectExecutionCountStays,
	nodeOutput,
	nodeRun,
	packageNode,
} from './harness/workflows';
import { useE2e } from './harness/suite';

// Each test publishes its own workflow: the watcher's notices are counted per workflow.
const { client, state, simulator, credentials, activated } = useE2e({
	credentials: 'schedule watch e2e',
});

const TRIGGER = 'Recurring Reviews Trigger';
/** The template's nodes on the trigger's two outputs. */
const REVIEWS_NODE = 'Handle New Reviews';
const NOTICE_NODE = 'Send the Notice';
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
	it('reads only its schedule while it is healthy; tells once when the service disables it, once when it is back, once when it is gone', async () => {
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

		simulator.setScheduleDisabled(scheduleId, false);
		expect((await noticesAfter(id, 2))[1]).toMatchObject({
			notice: 'recovered',
			previousNotice: 'disabled',
		});

		simulator.deleteScheduleBehindTheBack(scheduleId);
		expect((await noticesAfter(id, 3))[2]).toMatchObject({ notice: 'gone', scheduleId });
		// Told once: the next looks find it still gone and say nothing.
		await expectExecutionCountStays(client, id, 3, LOOK_MS + 1_500);

		// Unpublishing deletes the schedule as before (gone already: the service answers 404), after
		// the call returns; from then on nothing more is read.
		const unpublishing = lastSeq();
		await client.deactivate(id);
		activated.delete(id);
		await until('the delete of unpublishing', () =>
			requestsSince(unpublishing).includes(`DELETE scheduling/schedules/${scheduleId}`)
				? true
				: undefined,
		);
		const unpublishedFrom = lastSeq();
		await new Promise((resolve) => setTimeout(resolve, LOOK_MS + 1_500));
		expect(requestsSince(unpublishedFrom)).toEqual([]);
	});

	it('the template, with Mend Schedule on: a deleted schedule is replaced and told to the notice node, and the replacement delivers to the reviews node', async () => {
		const example = loadExamples().find(
			({ file }) => file === 'recurring-reviews-schedule-notices.json',
		)!;
		const workflow = prepareExample(example.workflow, { credentials, n8nUrl: state.webhookUrl });
		const trigger = workflow.nodes.find((node) => node.name === TRIGGER)!;
		trigger.parameters = {
			...trigger.parameters,
			options: { scheduleCheck: 'tenSeconds', mendSchedule: true },
		};
		const { id } = await client.createWorkflow(workflow);
		await client.activate(id);
		activated.add(id);
		const [first] = await until('one schedule', () =>
			schedules().length === 1 ? schedules() : undefined,
		);
		simulator.deleteScheduleBehindTheBack(first.schedule_id);
		const [noticeRun] = await client.waitForExecutions(id, 1, WITHIN_A_LOOK_MS);
		const [replacement] = schedules();
		expect(nodeOutput(noticeRun, NOTICE_NODE)).toEqual([
			expect.objectContaining({
				notice: 'gone',
				scheduleId: first.schedule_id,
				mended: { scheduleId: replacement.schedule_id },
			}),
		]);
		expect(replacement.payload).toEqual(first.payload);

		const fired = await simulator.fireSchedule(replacement.schedule_id);
		expect(fired.response.status).toBe(200);
		const [delivery] = await simulator.waitForDeliveries(1, 20_000);
		expect(delivery).toMatchObject({ state: 'delivered', finalStatus: 200 });
		const executions = await client.waitForExecutions(id, 3, WITHIN_A_LOOK_MS);
		const ran = (name: string) =>
			executions.filter((execution) => execution.data?.resultData.runData[name]);
		expect(ran(REVIEWS_NODE).flatMap((execution) => nodeOutput(execution, REVIEWS_NODE))).toEqual([
			expect.objectContaining({ kind: 'reviewJob', scheduleId: replacement.schedule_id }),
		]);
		expect(
			ran(NOTICE_NODE).flatMap((execution) =>
				nodeOutput(execution, NOTICE_NODE).map((notice) => notice.notice),
			),
		).toEqual(expect.arrayContaining(['gone', 'recovered']));

		await client.deactivate(id);
		activated.delete(id);
		await until('the replacement deleted', () => (schedules().length === 0 ? true : undefined));
	});
});
