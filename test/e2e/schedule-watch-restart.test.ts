import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { defaultOwner, N8nClient } from './harness/client';
import { createSimulatorCredentials, startSimulator } from './harness/fixtures';
import { freePort, startN8n, type N8nInstance } from './harness/n8n-process';
import { installPackage } from './harness/package';
import { readState } from './harness/state';
import {
	activateChain,
	expectExecutionCountStays,
	nodeRun,
	packageNode,
} from './harness/workflows';
import type { Simulator } from '../../simulator/server';

/**
 * An n8n of its own, stopped and started again on the same database while its trigger's schedule
 * is disabled: what a restart (an upgrade, a crash, a redeploy) meets.
 */
const TRIGGER = 'Recurring Reviews Trigger';
const encryptionKey = 'schedule-watch-restart-e2e-key';
let simulator: Simulator;
let userFolder: string;
let n8n: N8nInstance | undefined;

beforeAll(async () => {
	simulator = await startSimulator();
	userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-watch-restart-'));
	installPackage(userFolder, readState().tarball);
});
afterAll(async () => {
	await n8n?.stop();
	await simulator.stop();
	rmSync(userFolder, { recursive: true, force: true });
});

async function start(port: number): Promise<N8nClient> {
	n8n = await startN8n({ name: 'watch-restart', userFolder, port, encryptionKey });
	return new N8nClient(n8n.url);
}

it('after a restart while its schedule is disabled, keeps that schedule and tells the workflow at once', async () => {
	const port = await freePort();
	const client = await start(port);
	await client.signIn(defaultOwner);
	await client.createApiKey();
	const credentials = await createSimulatorCredentials(client, simulator, 'watch restart');
	const trigger = packageNode(
		'scheduledScrapeTrigger',
		TRIGGER,
		{
			collect: 'profile',
			frequency: 'daily',
			url: 'https://www.example.com/biz/e2e-restart',
			// Hourly looks: only the look at activation can tell within this test.
			options: { scheduleCheck: 'hour' },
		},
		{ scrapingApi: credentials.scrapingApi },
	);
	const id = await activateChain(client, 'e2e schedule watch restart', [trigger]);
	const deadline = Date.now() + 15_000;
	while (simulator.state.schedules.size === 0 && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const [{ schedule }] = [...simulator.state.schedules.values()];

	await n8n!.stop();
	simulator.setScheduleDisabled(schedule.schedule_id, true);
	const restarted = await start(port);
	await restarted.signIn(defaultOwner);
	await restarted.createApiKey();

	const [execution] = await restarted.waitForExecutions(id, 1, 60_000);
	const notices = (nodeRun(execution, TRIGGER).data?.main[1] ?? []).map((item) => item.json);
	expect(notices).toEqual([
		expect.objectContaining({ notice: 'disabled', scheduleId: schedule.schedule_id }),
	]);
	// Kept, not replaced behind the user's back: Mend Schedule is off.
	expect([...simulator.state.schedules.keys()]).toEqual([schedule.schedule_id]);
	await restarted.deactivate(id);
});

it('a problem told before a restart is not told again after it; its end is', async () => {
	await n8n?.stop();
	const port = await freePort();
	const client = await start(port);
	await client.signIn(defaultOwner);
	await client.createApiKey();
	const credentials = await createSimulatorCredentials(client, simulator, 'watch restart told');
	const trigger = packageNode(
		'scheduledScrapeTrigger',
		TRIGGER,
		{
			collect: 'profile',
			frequency: 'daily',
			url: 'https://www.example.com/biz/e2e-restart-told',
			options: { scheduleCheck: 'tenSeconds' },
		},
		{ scrapingApi: credentials.scrapingApi },
	);
	const known = new Set(simulator.state.schedules.keys());
	const id = await activateChain(client, 'e2e schedule watch restart told', [trigger]);
	const deadline = Date.now() + 15_000;
	const ours = () => [...simulator.state.schedules.keys()].find((key) => !known.has(key));
	while (ours() === undefined && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const scheduleId = ours()!;
	simulator.setScheduleDisabled(scheduleId, true);
	const [told] = await client.waitForExecutions(id, 1, 30_000);
	expect(nodeRun(told, TRIGGER).data?.main[1]?.[0]?.json).toMatchObject({
		notice: 'disabled',
		scheduleId,
	});

	await n8n!.stop();
	const restarted = await start(port);
	await restarted.signIn(defaultOwner);
	await restarted.createApiKey();
	// The look at activation and two more find it still disabled: nothing new to tell.
	await expectExecutionCountStays(restarted, id, 1, 25_000);
	simulator.setScheduleDisabled(scheduleId, false);
	const executions = await restarted.waitForExecutions(id, 2, 30_000);
	expect(nodeRun(executions[0], TRIGGER).data?.main[1]?.map((item) => item.json)).toEqual([
		expect.objectContaining({ notice: 'recovered', previousNotice: 'disabled', scheduleId }),
	]);
	await restarted.deactivate(id);
});
