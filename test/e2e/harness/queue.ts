import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	assertPackageLoaded,
	freePort,
	killAllOnSignals,
	startN8n,
	type N8nInstance,
} from './n8n-process';
import { installPackage, packageName } from './package';
import { artifactsDir } from './paths';
import { startPostgres, startRedis, type PostgresService, type Service } from './services';
import { postgresEnv } from './database';

export const WORKER_COUNT = 2;
/** n8n warns below 5 ("can lead to an unstable environment"). */
export const WORKER_CONCURRENCY = 5;

/**
 * n8n's defaults hold a dead worker's jobs for up to 90 s (lock 60 s, stalled check every 30 s)
 * before they are failed; these bring that inside a test's time limit without changing what n8n
 * then does. The leader's queue recovery keeps its default (every 180 min): run often, it races
 * with jobs finishing and marks some successful executions "crashed".
 */
export const QUEUE_RECOVERY_SETTINGS = {
	QUEUE_WORKER_LOCK_DURATION: '15000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

/**
 * n8n removes a queue job from Redis the moment it ends (keep last 0), and the webhook process
 * answers a Webhook node set to "When Last Node Finishes" only once Bull's `job.finished()` hears
 * of the end by pub/sub: a job that ends before the process listens (a run that fails at once on a
 * loaded machine) leaves the request unanswered for good (OptimalBits/bull#1906; with n8n's Bull,
 * a job that ended 300 ms before `finished()` was called still waited after 3 s, and was answered
 * when kept). Kept jobs are found ended. The nodes' own webhooks answer on receipt.
 */
export const QUEUE_JOB_RETENTION = {
	N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED: '1000',
	N8N_EXECUTIONS_QUEUE_KEEP_LAST_FAILED: '1000',
};

/**
 * n8n 2.41's default expression engine ("vm") takes a fresh isolate for every webhook request of a
 * trigger that is not n8n's own Webhook node: measured here, the Scraping Callback Trigger's
 * webhook process then accepts ~7-10 callbacks/s instead of ~30/s, which would put the loss test
 * alone over CI's time budget. Only the webhook process uses the "legacy" engine; main and the
 * workers, where executions run, keep the default.
 */
export const WEBHOOK_PROCESS_SETTINGS = { N8N_EXPRESSION_ENGINE: 'legacy' };

export interface QueueProcess {
	name: string;
	/** The HTTP server: editor and API (main), webhooks (webhook), health check (worker). */
	url: string;
	pid: number;
	logFile: string;
	alive: boolean;
}

export interface QueueCluster {
	/** The main process: editor, REST and public API. Serves no production webhooks. */
	main: N8nInstance;
	/** `n8n webhook`: every production webhook and every resume URL (WEBHOOK_URL points here). */
	webhook: N8nInstance;
	/** Every webhook process: index 0 is `webhook`; others are started on demand, on ports of their own. */
	webhooks: Array<N8nInstance | undefined>;
	workers: Array<N8nInstance | undefined>;
	redis: Service;
	postgres: PostgresService;
	/** Milliseconds from nothing to every process ready. */
	startupMs: number;
	/** Milliseconds each start-up step took (the webhook process and the workers start together). */
	timings: Record<string, number>;
	processes(): QueueProcess[];
	/** SIGKILL to the worker's whole process group (its task runner too), as a crash would do. */
	killWorker(index: number): Promise<void>;
	startWorker(index: number): Promise<N8nInstance>;
	/** Starts webhook process `index` (again, on the same port and user folder, after a stop). */
	startWebhook(index: number): Promise<N8nInstance>;
	/** Stops webhook process `index` the way a restart or a scale-down would (SIGTERM). */
	stopWebhook(index: number): Promise<void>;
	stop(): Promise<void>;
}

/**
 * Queue mode as n8n documents it for production: Redis, PostgreSQL, one main, one webhook process
 * and workers, all on 127.0.0.1, sharing the encryption key, the database and one WEBHOOK_URL (the
 * webhook process's). Each process has a user folder of its own with the package installed in it,
 * as separate machines or containers would.
 */
export async function startQueueCluster(options: {
	tarball: string;
	label?: string;
	/** Extra environment for one kind of process (for experiments: profiling, log levels). */
	env?: Partial<Record<'main' | 'webhook' | 'worker', Record<string, string>>>;
}): Promise<QueueCluster> {
	const started = Date.now();
	const timings: Record<string, number> = {};
	const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
		const at = Date.now();
		const result = await work();
		timings[step] = Date.now() - at;
		return result;
	};
	const label = options.label ?? 'queue';
	// Tests read the workers' logs to see who ran what; a previous run's restarted worker must not answer.
	const logDir = path.join(artifactsDir, 'logs');
	mkdirSync(logDir, { recursive: true });
	for (const file of readdirSync(logDir, { withFileTypes: true })) {
		if (file.name.startsWith(`n8n-${label}-`))
			rmSync(path.join(logDir, file.name), { force: true });
	}
	const folders: string[] = [];
	const userFolder = (name: string) => {
		const folder = mkdtempSync(path.join(os.tmpdir(), `n8n-${label}-${name}-`));
		folders.push(folder);
		killAllOnSignals(() => rmSync(folder, { recursive: true, force: true }));
		installPackage(folder, options.tarball);
		return folder;
	};
	const toStop: Array<{ stop(): Promise<void> }> = [];
	const stopAll = async () => {
		// n8n processes before the servers they depend on, so none logs a crash on the way down.
		const [postgres, redis, ...n8n] = toStop.splice(0);
		await Promise.all(n8n.map((p) => p.stop()));
		await Promise.all([redis?.stop(), postgres?.stop()]);
		for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
	};

	try {
		const postgres = await timed('postgres', () => startPostgres(`${label}-postgres`));
		toStop.push(postgres);
		const redis = await timed('redis', () => startRedis(`${label}-redis`));
		toStop.push(redis);

		const [mainPort, webhookPort] = [await freePort(), await freePort()];
		const mainUrl = `http://127.0.0.1:${mainPort}`;
		const webhookUrl = `http://127.0.0.1:${webhookPort}`;
		const shared: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			...postgresEnv(postgres),
			N8N_WEBHOOK_URL: `${webhookUrl}/`,
			WEBHOOK_URL: `${webhookUrl}/`,
			N8N_EDITOR_BASE_URL: `${mainUrl}/`,
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...QUEUE_RECOVERY_SETTINGS,
			...QUEUE_JOB_RETENTION,
		};
		const encryptionKey = randomBytes(24).toString('hex');

		// Main first: it runs the database migrations the others expect to find done.
		const main = await timed('main (with migrations)', () =>
			startN8n({
				name: `${label}-main`,
				userFolder: userFolder('main'),
				port: mainPort,
				encryptionKey,
				env: { ...shared, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true', ...options.env?.main },
			}),
		);
		toStop.push(main);

		const workerFolders = Array.from({ length: WORKER_COUNT }, (_, i) => userFolder(`worker${i}`));
		const workers: Array<N8nInstance | undefined> = workerFolders.map(() => undefined);
		const alive = workerFolders.map(() => false);
		const starts = workerFolders.map(() => 0);
		toStop.push(...workerFolders.map((_, i) => ({ stop: async () => await workers[i]?.stop() })));
		const startWorker = async (index: number) => {
			const restart = starts[index]++;
			// A restarted worker logs to a new file: the killed one's log is evidence.
			const worker = await startN8n({
				name: `${label}-worker${index}${restart ? `-restart${restart}` : ''}`,
				command: 'worker',
				args: [`--concurrency=${WORKER_CONCURRENCY}`],
				userFolder: workerFolders[index],
				encryptionKey,
				env: { ...shared, ...options.env?.worker },
			});
			workers[index] = worker;
			alive[index] = true;
			assertPackageLoaded(worker, packageName);
			return worker;
		};
		const webhooks: Array<N8nInstance | undefined> = [];
		const webhookPlaces: Array<{ port: number; folder: string; starts: number }> = [];
		toStop.push({ stop: async () => void (await Promise.all(webhooks.map((w) => w?.stop()))) });
		const startWebhook = async (index: number) => {
			if (webhooks[index]) throw new Error(`webhook process ${index} is running already`);
			webhookPlaces[index] ??= {
				port: index === 0 ? webhookPort : await freePort(),
				folder: userFolder(`webhook${index}`),
				starts: 0,
			};
			const place = webhookPlaces[index];
			const restart = place.starts++;
			const instance = await startN8n({
				name: `${label}-webhook${index ? index : ''}${restart ? `-restart${restart}` : ''}`,
				command: 'webhook',
				userFolder: place.folder,
				port: place.port,
				encryptionKey,
				env: { ...shared, ...WEBHOOK_PROCESS_SETTINGS, ...options.env?.webhook },
			});
			webhooks[index] = instance;
			assertPackageLoaded(instance, packageName);
			return instance;
		};
		const [webhook] = await timed('webhook and workers', () =>
			Promise.all([startWebhook(0), ...workerFolders.map((_, i) => startWorker(i))]),
		);
		assertPackageLoaded(main, packageName);

		return {
			main,
			webhook,
			webhooks,
			workers,
			redis,
			postgres,
			startupMs: Date.now() - started,
			timings,
			processes: () => [
				{ name: 'main', url: main.url, pid: main.pid, logFile: main.logFile, alive: true },
				...webhookPlaces.map((_, i) => ({
					name: i ? `webhook${i}` : 'webhook',
					url: webhooks[i]?.url ?? '',
					pid: webhooks[i]?.pid ?? 0,
					logFile: webhooks[i]?.logFile ?? '',
					alive: webhooks[i] !== undefined,
				})),
				...workers.map((worker, i) => ({
					name: `worker${i}`,
					url: worker?.url ?? '',
					pid: worker?.pid ?? 0,
					logFile: worker?.logFile ?? '',
					alive: alive[i],
				})),
			],
			async killWorker(index) {
				const worker = workers[index];
				if (!worker || !alive[index]) throw new Error(`worker ${index} is not running`);
				process.kill(-worker.pid, 'SIGKILL');
				await worker.exited;
				alive[index] = false;
			},
			async startWorker(index) {
				if (alive[index]) throw new Error(`worker ${index} is running already`);
				return await startWorker(index);
			},
			startWebhook,
			async stopWebhook(index) {
				const instance = webhooks[index];
				if (!instance) throw new Error(`webhook process ${index} is not running`);
				webhooks[index] = undefined;
				await instance.stop();
			},
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}
