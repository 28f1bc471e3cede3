import type { N8nClient, WorkflowNode } from '../e2e/harness/client';
import type { QueueControl } from '../e2e/harness/queue-control';
import type { QueueState, SuiteState } from '../e2e/harness/state';
import {
	activateChain,
	baseNode,
	nodeOutput,
	packageNode,
	postToWebhook,
	productionUrl,
} from '../e2e/harness/workflows';
import { allExecutions, connectQueue, sleep } from './helpers';

/**
 * The trigger's repeat memory is its webhook process's, and the workflow's static data only as far
 * as n8n saves it (n8n 2.41: only while it is empty, so a workflow's first delivery): a repeat that
 * reaches another process, or comes after a restart, may start the workflow again. The README's
 * answer is n8n's Remove Duplicates node on the trigger's `deliveryKey`, whose history lives in
 * n8n's database. Both are shown on the twin: one delivery sent to each webhook process and once
 * more after a restart is processed once, with the trigger's own screening on, and off (every
 * delivery starts an execution, as when it reaches a process that does not know it).
 *
 * The service repeats a delivery hours later (service-facts.md), so each copy here is sent once the
 * executions of the copies before it have ended. Two copies run at the same moment is n8n's own
 * limit, documented in results-delivery.md: Remove Duplicates reads and writes its history without
 * a lock, and a workflow's first two executions at once may fail one with `QueryFailedError` (seen
 * in CI when this test sent the copies back to back).
 */
let client: N8nClient;
let state: SuiteState & { queue: QueueState };
let control: QueueControl;
const workflowIds: string[] = [];

beforeAll(() => {
	({ client, state, control } = connectQueue());
});

afterAll(async () => {
	for (const id of workflowIds) await client.deactivate(id);
});

type Answer = Awaited<ReturnType<typeof postToWebhook>>;

const removeDuplicates = (): WorkflowNode =>
	baseNode('removeDuplicates', 'Remove Duplicates', 2, {
		operation: 'removeItemsSeenInPreviousExecutions',
		logic: 'removeItemsWithAlreadySeenKeyValues',
		dedupeValue: '={{ $json.deliveryKey }}',
		options: { scope: 'workflow' },
	});

const processed = (): WorkflowNode => baseNode('noOp', 'Processed', 1);

const isRepeat = (answer: Answer) =>
	(answer.body as { duplicate?: boolean } | undefined)?.duplicate === true;

const ended = (status: string | undefined) =>
	status !== undefined && !['new', 'running', 'waiting'].includes(status);

/** The executions of `workflowId` once `expected` of them have ended (or 30 s have passed). */
const settledExecutions = async (workflowId: string, expected: number) => {
	const deadline = Date.now() + 30_000;
	let executions = await allExecutions(client, workflowId);
	while (
		(executions.length < expected || !executions.every((e) => ended(e.status))) &&
		Date.now() < deadline
	) {
		await sleep(250);
		executions = await allExecutions(client, workflowId);
	}
	return executions;
};

/**
 * Each job to the twin's first webhook process and to its second, then once more to the second
 * after a restart (as the documented update restarts it): one restart serves every case.
 */
const sendEverywhere = async (
	targets: Array<{ trigger: WorkflowNode; job: Record<string, unknown>; workflowId: string }>,
) => {
	const paths = targets.map(({ trigger }) => productionUrl('', trigger, 'callback'));
	const url = (name: string) => state.queue.processes.find((p) => p.name === name)!.url;
	const [first, second] = [url('webhook'), url('webhook1')];
	const answers = targets.map((): Answer[] => []);
	const send = async (n: number, processUrl: string) => {
		answers[n].push(await postToWebhook(`${processUrl}${paths[n]}`, targets[n].job));
		const started = answers[n].filter((answer) => !isRepeat(answer)).length;
		await settledExecutions(targets[n].workflowId, started);
	};
	for (const n of targets.keys()) {
		await send(n, first);
		await send(n, second);
	}
	const restarted = await control.restart('webhook1', 60_000);
	expect(restarted.processes.find((p) => p.name === 'webhook1')?.alive).toBe(true);
	for (const n of targets.keys()) await send(n, second);
	return answers;
};

const cases = [
	{ screening: 'off', options: { dedupe: false }, jobId: 424242 },
	{ screening: 'on', options: {}, jobId: 434343 },
];

describe('a repeated delivery across webhook processes and a restart', () => {
	let answersOf: Map<string, Answer[]>;

	beforeAll(async () => {
		const targets = [];
		for (const { screening, options, jobId } of cases) {
			const trigger = packageNode('scrapingCallbackTrigger', 'Trigger', { options });
			const workflowId = await activateChain(client, `queue: repeats, screening ${screening}`, [
				trigger,
				removeDuplicates(),
				processed(),
			]);
			workflowIds.push(workflowId);
			const job = {
				success: true,
				status: 200,
				job_id: jobId,
				crawl_status: 'complete',
				reviews: [{ id: 'r1', rating_value: 5 }],
			};
			targets.push({ trigger, job, workflowId });
		}
		const answers = await sendEverywhere(targets);
		answersOf = new Map(cases.map(({ screening }, n) => [screening, answers[n]]));
	}, 240_000);

	it.each(cases.map((c, n) => [c.screening, n] as const))(
		'is processed once behind Remove Duplicates on deliveryKey (trigger screening %s)',
		async (screening, n) => {
			const workflowId = workflowIds[n];
			const answers = answersOf.get(screening)!;
			expect(answers).toHaveLength(3);
			for (const answer of answers) expect(answer.status).toBe(200);
			const repeatsAnswered = answers.filter(isRepeat).length;
			// Screening off: every delivery starts an execution and Remove Duplicates alone holds the
			// line. Screening on: the static data saved after the first call answers the later ones.
			if (screening === 'off') expect(repeatsAnswered).toBe(0);
			const expected = 3 - repeatsAnswered;
			const executions = await settledExecutions(workflowId, expected);
			expect(executions).toHaveLength(expected);
			const keys = new Set<unknown>();
			let processedItems = 0;
			for (const summary of executions) {
				const execution = await client.getExecution(summary.id);
				expect(execution.status).toBe('success');
				for (const item of nodeOutput(execution, 'Trigger')) keys.add(item.deliveryKey);
				const runs = execution.data?.resultData.runData.Processed;
				processedItems += runs ? nodeOutput(execution, 'Processed').length : 0;
			}
			expect(keys.size).toBe(1);
			expect(processedItems).toBe(1);
		},
	);
});
