import { readFileSync } from 'node:fs';

import { postgresHandshake } from '../e2e/harness/services';
import { chain, packageNode } from '../e2e/harness/workflows';
import { processLogs, sleep, timesEnqueued, useQueueE2e, workersThatRan } from './helpers';

const { client, state, control, simulator, credentials } = useQueueE2e({
	credentials: 'queue mode',
});

/** Polls `read` for up to 10 s until it returns `length` elements. */
async function until<T>(read: () => T[], length: number): Promise<T[]> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		const current = read();
		if (current.length === length || Date.now() > deadline) return current;
		await sleep(100);
	}
}

describe("queue mode: the stack's twin", () => {
	it('runs one main, two webhook processes and two workers, each answering its health check', async () => {
		const processes = await control.processes();
		expect(processes.map((p) => [p.name, p.alive])).toEqual([
			['main', true],
			['webhook', true],
			['webhook1', true],
			['worker0', true],
			['worker1', true],
		]);
		expect(new Set(processes.map((p) => p.url)).size).toBe(5);
		// The service and the editor reach n8n through the front (N8N_WEBHOOK_URL).
		expect(state.webhookUrl).toBe(state.queue.frontUrl);
		for (const { url } of processes) {
			const res = await fetch(`${url}/healthz/readiness`);
			expect({ url, status: res.status }).toEqual({ url, status: 200 });
		}
	});

	it("runs on PostgreSQL 17 or newer, and no n8n process logs n8n's warning about that version", async () => {
		const { port, user, database } = state.queue.postgres;
		const version = await postgresHandshake(port, user, database);
		expect(Number.parseInt(version, 10)).toBeGreaterThanOrEqual(17);
		// n8n checks the version on connecting, before it takes the migration lock: a log holding
		// that line has passed the check.
		const logs = state.queue.processes
			.filter((p) => p.logFile)
			.map(({ name, logFile }) => {
				const text = readFileSync(logFile, 'utf8');
				return {
					name,
					connected: text.includes('Acquiring database migration lock'),
					warnings: text.match(
						/^.*(?:Postgres \d+ is (?:not supported|outside the supported range)|Could not check database version).*$/gm,
					),
				};
			});
		expect(logs.map((log) => log.name)).toEqual(
			expect.arrayContaining(['main', 'webhook', 'webhook1', 'worker0', 'worker1']),
		);
		expect(logs).toEqual(logs.map(({ name }) => ({ name, connected: true, warnings: null })));
	});
});

describe('Scheduled Scrape Trigger lifecycle in queue mode', () => {
	it('activation on main creates the schedule, deliveries run through the webhook process, deactivation deletes it', async () => {
		const trigger = packageNode(
			'scheduledScrapeTrigger',
			'Scheduled Scrape Trigger',
			{
				collect: 'profile',
				frequency: 'daily',
				url: 'https://www.example.com/biz/queue-schedule',
				blocks: 2,
			},
			{ scrapingApi: credentials.scrapingApi },
		);
		const { id: workflowId } = await client.createWorkflow({
			name: 'queue: scheduled trigger',
			...chain([trigger]),
		});
		await client.activate(workflowId);
		let active = true;
		try {
			// Activation returns before the trigger's `create` has run.
			const schedules = await until(() => [...simulator.state.schedules.values()], 1);
			const { schedule } = schedules[0];
			const callback = new URL(String(schedule.payload.query_params.callback));
			expect(`${callback.origin}${callback.pathname}`).toBe(
				`${state.webhookUrl}/webhook/${trigger.webhookId}/scheduled`,
			);

			// The service runs a new schedule at its time of day, never in the moment after its creation:
			// fired once n8n has saved what activation stored (the secret the webhook process checks).
			const saved = async () => {
				const { staticData } = (await client.getWorkflow(workflowId)) as unknown as {
					staticData: Record<string, { secret?: string }> | null;
				};
				return Boolean(staticData?.['node:Scheduled Scrape Trigger']?.secret);
			};
			const deadline = Date.now() + 30_000;
			while (!(await saved()) && Date.now() < deadline) await sleep(200);
			await simulator.fireSchedule(schedule.schedule_id);
			const [delivery] = await simulator.waitForDeliveries(1, 20_000);
			// The secret that main stored on activation is what the webhook process checks.
			expect(delivery).toEqual(expect.objectContaining({ state: 'delivered', finalStatus: 200 }));
			const [execution] = await client.waitForExecutions(workflowId, 1, 30_000);
			expect(execution.status).toBe('success');
			expect(timesEnqueued(processLogs('webhook'), execution.id)).toBe(1);
			expect(workersThatRan(execution.id)).toHaveLength(1);

			await client.deactivate(workflowId);
			active = false;
			expect(await until(() => [...simulator.state.schedules.values()], 0)).toEqual([]);
		} finally {
			if (active) await client.deactivate(workflowId);
		}
	});
});
