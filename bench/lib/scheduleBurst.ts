import { randomUUID } from 'node:crypto';

import type { Simulator } from '../../simulator/server';
import type { N8nClient, WorkflowNode } from '../../test/e2e/harness/client';
import { workflowNode } from '../../test/e2e/harness/workflows';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Recurring Reviews Trigger as a user sets it up: one profile, three reviews a run. */
export function recurringTriggerNode(
	packageName: string,
	credential: { id: string; name: string },
): WorkflowNode {
	const parameters = {
		collect: 'profile',
		frequency: 'daily',
		url: `https://www.example.com/biz/recurring-${randomUUID()}`,
		blocks: 3,
	};
	return workflowNode(
		`${packageName}.scheduledScrapeTrigger`,
		'Recurring Reviews Trigger',
		parameters,
		{
			webhookId: randomUUID(),
			credentials: { scrapingApi: credential },
		},
	);
}

/**
 * The schedule a Recurring Reviews Trigger's activation created, once n8n has saved the secret it
 * carries: n8n 2.x activates in the background (a failing trigger is retried for about 15 s, then
 * its error is kept in the publication status, which this reports), and a delivery that comes
 * before the secret is saved is refused with 401.
 */
export async function activatedSchedule(
	client: N8nClient,
	simulator: Simulator,
	workflowId: string,
	nodeName: string,
	timeoutMs = 60_000,
): Promise<{ scheduleId: number; callback: string }> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { staticData } = (await client.getWorkflow(workflowId)) as unknown as {
			staticData: Record<string, { scheduleId?: number; secret?: string }> | null;
		};
		const { scheduleId, secret } = staticData?.[`node:${nodeName}`] ?? {};
		const schedule = scheduleId ? simulator.state.schedules.get(scheduleId)?.schedule : undefined;
		const callback = String(schedule?.payload.query_params.callback ?? '');
		if (schedule && secret && new URL(callback).searchParams.get('secret') === secret) {
			return { scheduleId: schedule.schedule_id, callback };
		}
		if (Date.now() > deadline) {
			const publication = await client
				.rest<unknown>('GET', `/workflows/${workflowId}/publication-status`)
				.catch((error: Error) => error.message);
			throw new Error(
				`${nodeName} made no schedule within ${timeoutMs / 1000} s (stored: ${JSON.stringify({ scheduleId, secret: secret ? '***' : undefined })}; ` +
					`schedules on the simulator: ${simulator.state.schedules.size}; publication: ${JSON.stringify(publication)})`,
			);
		}
		await sleep(200);
	}
}

/**
 * `count` runs of a schedule as the service makes them, each a review job of its own, completed
 * at one moment with their callbacks kept back instead of sent: the deliveries the trigger would
 * receive, for the caller to send as it likes. The simulator must hold no other job.
 */
export async function heldScheduleDeliveries(
	simulator: Simulator,
	scheduleId: number,
	count: number,
): Promise<Array<{ url: string; body: unknown }>> {
	const holding = simulator.config.holdCompletion;
	simulator.configure({ holdCompletion: true });
	const deliveries: Array<{ url: string; body: unknown }> = [];
	const deliver = simulator.deliver;
	try {
		for (let run = 0; run < count; run++) {
			const fired = await simulator.fireSchedule(scheduleId, { ignorePending: true });
			if (fired.response.status !== 200) {
				throw new Error(`schedule run ${run}: HTTP ${fired.response.status}`);
			}
		}
		simulator.deliver = (url, body) => void deliveries.push({ url, body });
		const released = simulator.releaseHeldJobs();
		if (released !== count || deliveries.length !== count) {
			throw new Error(
				`${count} schedule runs made ${released} jobs, ${deliveries.length} deliveries`,
			);
		}
	} finally {
		simulator.deliver = deliver;
		simulator.configure({ holdCompletion: holding });
	}
	return deliveries;
}
