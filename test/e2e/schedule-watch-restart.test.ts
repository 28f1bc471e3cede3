import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { defaultOwner, N8nClient, type Execution } from './harness/client';
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

function watchingTrigger(
	url: string,
	scheduleCheck: string,
	scrapingApi: { id: string; name: string },
) {
	return packageNode(
		'scheduledScrapeTrigger',
		TRIGGER,
		{ collect: 'profile', frequency: 'daily', url, options: { scheduleCheck } },
		{ scrapingApi },
	);
}

async function scheduleOf(name: string): Promise<number> {
	const deadline = Date.now() + 15_000;
	for (;;) {
		const record = [...simulator.state.schedules.values()].find(
			({ schedule }) => schedule.schedule_name === `n8n: ${name}`,
		);
		if (record) return record.schedule.schedule_id;
		if (Date.now() > deadline) throw new Error(`no schedule for "${name}" after 15 s`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

const noticesOf = (execution: Execution) =>
	(nodeRun(execution, TRIGGER).data?.main[1] ?? []).map((item) => item.json);

// One restart for two workflows (an n8n start is the slow part): one whose schedule is disabled
// while n8n is down, one whose problem was told before it.
it('after a restart, a schedule disabled meanwhile is kept and told at once; a problem told before is not told again, its end is', async () => {
	const port = await freePort();
	const client = await start(port);
	await client.signIn(defaultOwner);
	await client.createApiKey();
	const { scrapingApi } = await createSimulatorCredentials(client, simulator, 'watch restart');
	// Hourly looks: only the look at activation can tell within this test.
	const downName = 'e2e schedule watch restart';
	const down = await activateChain(client, downName, [
		watchingTrigger('https://www.example.com/biz/e2e-restart', 'hour', scrapingApi),
	]);
	const toldName = 'e2e schedule watch restart told';
	const told = await activateChain(client, toldName, [
		watchingTrigger('https://www.example.com/biz/e2e-restart-told', 'tenSeconds', scrapingApi),
	]);
	const downSchedule = await scheduleOf(downName);
	const toldSchedule = await scheduleOf(toldName);

	simulator.setScheduleDisabled(toldSchedule, true);
	const [toldBefore] = await client.waitForExecutions(told, 1, 30_000);
	expect(noticesOf(toldBefore)).toEqual([
		expect.objectContaining({ notice: 'disabled', scheduleId: toldSchedule }),
	]);

	await n8n!.stop();
	simulator.setScheduleDisabled(downSchedule, true);
	const restarted = await start(port);
	await restarted.signIn(defaultOwner);
	await restarted.createApiKey();

	const [toldAfter] = await restarted.waitForExecutions(down, 1, 60_000);
	expect(noticesOf(toldAfter)).toEqual([
		expect.objectContaining({ notice: 'disabled', scheduleId: downSchedule }),
	]);
	// Kept, not replaced behind the user's back: Mend Schedule is off.
	expect(simulator.state.schedules.has(downSchedule)).toBe(true);
	expect(simulator.state.schedules.size).toBe(2);

	// The look at activation and two more find it still disabled: nothing new to tell.
	await expectExecutionCountStays(restarted, told, 1, 25_000);
	simulator.setScheduleDisabled(toldSchedule, false);
	const executions = await restarted.waitForExecutions(told, 2, 30_000);
	expect(noticesOf(executions[0])).toEqual([
		expect.objectContaining({
			notice: 'recovered',
			previousNotice: 'disabled',
			scheduleId: toldSchedule,
		}),
	]);
	await restarted.deactivate(down);
	await restarted.deactivate(told);
	// Two n8n starts: beside CI's other lanes one took over a minute.
}, 420_000);
