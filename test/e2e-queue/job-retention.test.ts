import { createRequire } from 'node:module';
import path from 'node:path';

import { ensureRuntime } from '../e2e/harness/paths';
import { QUEUE_JOB_RETENTION } from '../e2e/harness/queue';
import { startRedis, type Service } from '../e2e/harness/services';
import { activateChain, webhookNode } from '../e2e/harness/workflows';
import { connectQueue, sleep } from './helpers';

/**
 * Why the queue-mode suite keeps ended jobs (QUEUE_JOB_RETENTION): n8n's own Bull, asked whether a
 * job has ended after the job ended and was deleted (n8n's default), waits for good; with ended jobs
 * kept it answers. Should n8n change its Bull or its default, this says the setting can go.
 */
interface BullJob {
	data: { executionId?: string | number };
	finished(): Promise<unknown>;
}
interface BullQueue {
	process(handler: () => Promise<unknown>): void;
	add(data: object, options: { removeOnComplete: number; removeOnFail: number }): Promise<BullJob>;
	isReady(): Promise<unknown>;
	once(event: 'completed' | 'failed', listener: () => void): void;
	/** Newest first. */
	getCompleted(start: number, end: number): Promise<BullJob[]>;
	close(): Promise<void>;
}
type BullConstructor = new (
	name: string,
	options: { redis: { host: string; port: number }; prefix?: string },
) => BullQueue;

const STILL_WAITING_AFTER_MS = 2000;
let redis: Service;
let Bull: BullConstructor;

beforeAll(async () => {
	const n8nPackage = path.join(path.dirname(ensureRuntime().n8nMain), '..', 'package.json');
	Bull = createRequire(n8nPackage)('bull') as BullConstructor;
	redis = await startRedis('job-retention-redis');
});

afterAll(async () => {
	await redis?.stop();
});

/** Asks `finished()` only once the job has ended, as a webhook process busy for a moment would. */
async function askAfterTheEnd(keep: number, outcome: 'completed' | 'failed'): Promise<string> {
	const queue = new Bull(`retention-${keep}-${outcome}`, {
		redis: { host: '127.0.0.1', port: redis.port },
	});
	try {
		const ended = new Promise<void>((resolve) => queue.once(outcome, resolve));
		queue.process(async () => {
			if (outcome === 'failed') throw new Error('the run failed');
			return { ok: true };
		});
		await queue.isReady();
		const job = await queue.add({}, { removeOnComplete: keep, removeOnFail: keep });
		await ended;
		let timer: NodeJS.Timeout | undefined;
		const answer = await Promise.race([
			job.finished().then(
				() => 'answered',
				() => 'answered',
			),
			new Promise<string>((resolve) => {
				timer = setTimeout(() => resolve('still waiting'), STILL_WAITING_AFTER_MS);
			}),
		]);
		clearTimeout(timer);
		return answer;
	} finally {
		await queue.close();
	}
}

const kept = Number(QUEUE_JOB_RETENTION.N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED);

it.each(['completed', 'failed'] as const)(
	'a %s job: deleted as it ends (n8n default), finished() waits; kept, it answers',
	async (outcome) => {
		expect(Number(QUEUE_JOB_RETENTION.N8N_EXECUTIONS_QUEUE_KEEP_LAST_FAILED)).toBe(kept);
		expect(kept).toBeGreaterThan(0);
		expect(await askAfterTheEnd(0, outcome)).toBe('still waiting');
		expect(await askAfterTheEnd(kept, outcome)).toBe('answered');
	},
	30_000,
);

it("keeps ended jobs in the suite's own cluster: n8n read the setting", async () => {
	const { client, state } = connectQueue();
	// n8n's queue: its default prefix and name (QUEUE_BULL_PREFIX, DEFAULT_QUEUE_NAME).
	const n8nQueue = new Bull('jobs', {
		redis: { host: '127.0.0.1', port: state.queue.redisPort },
		prefix: 'bull',
	});
	const path = `job-retention-${Date.now()}`;
	const id = await activateChain(client, 'job retention', [
		webhookNode(path, { respond: 'onReceived' }),
	]);
	try {
		await (await client.callWebhook(path, {})).arrayBuffer();
		const [execution] = await client.waitForExecutions(id, 1, 30_000);
		// The worker saves the execution, then ends the job: a few polls. The completed set holds at
		// most the kept number (reached after the loss test's 1,000 callbacks), so a count stays put:
		// look for this execution's own job among the newest.
		const kept = async () =>
			(await n8nQueue.getCompleted(0, 99)).some(
				(job) => String(job.data.executionId) === String(execution.id),
			);
		let found = await kept();
		for (let poll = 0; poll < 50 && !found; poll++) {
			await sleep(100);
			found = await kept();
		}
		expect({ execution: execution.id, keptByBull: found }).toEqual({
			execution: execution.id,
			keptByBull: true,
		});
	} finally {
		await client.deactivate(id).catch(() => undefined);
		await n8nQueue.close();
	}
}, 60_000);
