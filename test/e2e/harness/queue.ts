import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import { artifactsDir, repoRoot } from './paths';
import {
	queryPostgres,
	startPostgres,
	startRedis,
	type PostgresService,
	type Service,
} from './services';
import { startDeliveryProxy, type DeliveryProxy } from './proxy';
import { STACK_WEBHOOK_PROCESSES, stackEnv, type StackAddresses } from './stack';
import { launchTaskRunner, type TaskRunner } from './taskRunner';

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
	/** `n8n webhook`: every production webhook and every resume URL (N8N_WEBHOOK_URL points here). */
	webhook: N8nInstance;
	/** Every webhook process: index 0 is `webhook`; others are started on demand, on ports of their own. */
	webhooks: Array<N8nInstance | undefined>;
	workers: Array<N8nInstance | undefined>;
	/** Each worker's task runner (n8n.env: external mode), by the worker's index. */
	runners: TaskRunner[];
	redis: Service;
	postgres: PostgresService;
	/**
	 * The shipped HAProxy front (deploy/haproxy.cfg): production webhooks and resume URLs to the
	 * webhook processes started with the cluster, everything else to main.
	 */
	front: DeliveryProxy;
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
	/** SIGKILL to webhook process `index`'s group, as a crash or an out-of-memory kill would do. */
	killWebhook(index: number): Promise<void>;
	/**
	 * Stops one n8n process as `docker compose` does (SIGTERM, SIGKILL after `graceMs`) and starts
	 * it again in its place, answering once it is ready: `main`, `webhook<i>` or `worker<i>`.
	 */
	restart(process: string, graceMs: number): Promise<void>;
	/**
	 * PostgreSQL restarted as deploy/restart-postgres.sh does: the front closed, the open executions
	 * ended, PostgreSQL down `downMs`, every n8n process ready again, the front open.
	 */
	restartPostgres(downMs: number): Promise<void>;
	stop(): Promise<void>;
}

/**
 * What every n8n process of a cluster gets over the harness's own settings (`n8nSettings`):
 * deploy/n8n.env with the run's addresses, where the service and the editor reach it, the runners'
 * token; outside the stack, the test settings above.
 */
export function clusterSettings(cluster: {
	stack: boolean;
	addresses: StackAddresses;
	publicUrl: string;
	editorUrl: string;
	runnersAuthToken: string;
}): Record<string, string> {
	return {
		...stackEnv(cluster.addresses),
		N8N_RUNNERS_AUTH_TOKEN: cluster.runnersAuthToken,
		N8N_WEBHOOK_URL: `${cluster.publicUrl}/`,
		N8N_EDITOR_BASE_URL: `${cluster.editorUrl}/`,
		...(cluster.stack ? {} : QUEUE_RECOVERY_SETTINGS),
	};
}

/**
 * Queue mode as deploy/compose.yaml runs it (docs/production.md): Redis, PostgreSQL, one main,
 * webhook processes and workers, all on 127.0.0.1, every n8n process on deploy/n8n.env with
 * this run's addresses, sharing the encryption key, and the shipped HAProxy front. Each process
 * has a user folder of its own with the package installed in it, as containers would.
 *
 * With `stack` (`npm start -- --scale`, the queue suite's twin), what deploy/ ships and nothing
 * else: two webhook processes and N8N_WEBHOOK_URL at the front. Without it (the benches' smaller
 * clusters), one webhook process, N8N_WEBHOOK_URL pointing straight at it, and the recovery
 * settings above.
 */
export async function startQueueCluster(options: {
	tarball: string;
	label?: string;
	/** Run exactly the shipped stack (`npm start -- --scale`). */
	stack?: boolean;
	/** The front's port (a free one by default). */
	frontPort?: number;
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
	let front: DeliveryProxy | undefined;
	const runners: TaskRunner[] = [];
	const stopAll = async () => {
		// The front first: nothing new reaches n8n while it stops.
		await front?.stop();
		front = undefined;
		// The runners before their workers, or they would wait to connect to them again.
		await Promise.all(runners.splice(0).map((runner) => runner.stop()));
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
		const runnersAuthToken = randomBytes(24).toString('hex');
		const frontPort = options.frontPort ?? (await freePort());
		const mainUrl = `http://127.0.0.1:${mainPort}`;
		const frontUrl = `http://127.0.0.1:${frontPort}`;
		// Where n8n tells the service to deliver and to resume: the front, as in compose.yaml; the
		// e2e suite's tests reach the webhook process directly.
		const publicUrl = options.stack ? frontUrl : `http://127.0.0.1:${webhookPort}`;
		const shared = clusterSettings({
			stack: options.stack ?? false,
			addresses: {
				DB_POSTGRESDB_HOST: '127.0.0.1',
				DB_POSTGRESDB_PORT: String(postgres.port),
				DB_POSTGRESDB_DATABASE: postgres.database,
				DB_POSTGRESDB_USER: postgres.user,
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(redis.port),
				N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			},
			publicUrl,
			editorUrl: options.stack ? frontUrl : mainUrl,
			runnersAuthToken,
		});
		const encryptionKey = randomBytes(24).toString('hex');

		// Main first: it runs the database migrations the others expect to find done.
		const mainFolder = userFolder('main');
		let mainStarts = 0;
		const startMain = async () =>
			await startN8n({
				name: `${label}-main${mainStarts++ ? `-restart${mainStarts - 1}` : ''}`,
				userFolder: mainFolder,
				port: mainPort,
				encryptionKey,
				stack: options.stack,
				env: { ...shared, ...options.env?.main },
			});
		let main = await timed('main (with migrations)', startMain);
		toStop.push({ stop: async () => await main.stop() });

		const workerFolders = Array.from({ length: WORKER_COUNT }, (_, i) => userFolder(`worker${i}`));
		const workers: Array<N8nInstance | undefined> = workerFolders.map(() => undefined);
		const alive = workerFolders.map(() => false);
		const starts = workerFolders.map(() => 0);
		// A worker keeps its broker port across restarts: its runner connects there again.
		const brokerPorts = await Promise.all(workerFolders.map(() => freePort()));
		toStop.push(...workerFolders.map((_, i) => ({ stop: async () => await workers[i]?.stop() })));
		const startWorker = async (index: number) => {
			const restart = starts[index]++;
			// A restarted worker logs to a new file: the killed one's log is evidence.
			const worker = await startN8n({
				name: `${label}-worker${index}${restart ? `-restart${restart}` : ''}`,
				command: 'worker',
				args: [`--concurrency=${WORKER_CONCURRENCY}`],
				userFolder: workerFolders[index],
				brokerPort: brokerPorts[index],
				encryptionKey,
				stack: options.stack,
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
				stack: options.stack,
				env: { ...shared, ...options.env?.webhook },
			});
			webhooks[index] = instance;
			assertPackageLoaded(instance, packageName);
			return instance;
		};
		const webhookCount = options.stack ? STACK_WEBHOOK_PROCESSES : 1;
		const stopWithin = async (instance: N8nInstance, graceMs: number) => {
			const timer = setTimeout(() => {
				try {
					process.kill(-instance.pid, 'SIGKILL');
				} catch {
					// gone already
				}
			}, graceMs);
			try {
				process.kill(-instance.pid, 'SIGTERM');
			} catch {
				// gone already
			}
			await instance.exited;
			clearTimeout(timer);
		};
		/** Waits (bounded) until the front's view of one server meets `wanted`. */
		const frontServerReaches = async (
			server: string,
			wanted: (state: { sessions: number; status: string }) => boolean,
			timeoutMs: number,
		) => {
			const [backend, name] = server.split('/');
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const [header, ...rows] = (await front!.admin('show stat')).trim().split('\n');
				const columns = header.replace(/^# /, '').split(',');
				const row = rows
					.map((line) => line.split(','))
					.find((c) => c[0] === backend && c[1] === name);
				const state = {
					sessions: Number(row?.[columns.indexOf('scur')]) + Number(row?.[columns.indexOf('qcur')]),
					status: row?.[columns.indexOf('status')] ?? 'missing',
				};
				if (wanted(state)) return;
				if (Date.now() > deadline) {
					throw new Error(`the front's ${server} did not get there: ${JSON.stringify(state)}`);
				}
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
		};
		runners.push(
			...brokerPorts.map((brokerPort, i) =>
				launchTaskRunner({ name: `${label}-worker${i}`, brokerPort, authToken: runnersAuthToken }),
			),
		);
		const [webhook, ...others] = await timed('webhook and workers', () =>
			Promise.all([
				...Array.from({ length: webhookCount }, (_, i) => startWebhook(i)),
				...workerFolders.map((_, i) => startWorker(i)),
			]),
		);
		front = await timed('front', () =>
			startDeliveryProxy(
				[webhook, ...others.slice(0, webhookCount - 1)].map((w) => w.url),
				`${label}-front`,
				undefined,
				{ main: mainUrl, port: frontPort },
			),
		);
		assertPackageLoaded(main, packageName);

		return {
			get main() {
				return main;
			},
			webhook,
			webhooks,
			workers,
			runners,
			redis,
			postgres,
			front,
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
			async killWebhook(index) {
				const instance = webhooks[index];
				if (!instance) throw new Error(`webhook process ${index} is not running`);
				webhooks[index] = undefined;
				process.kill(-instance.pid, 'SIGKILL');
				await instance.exited;
			},
			async restart(name, graceMs) {
				const [, kind, number] = /^(main|webhook|worker)(\d*)$/.exec(name) ?? [];
				const index = Number(number || 0);
				if (kind === 'main') {
					await stopWithin(main, graceMs);
					main = await startMain();
				} else if (kind === 'webhook' && webhooks[index]) {
					// As deploy/update.sh does: out of the front's rotation and idle before it stops (n8n's
					// webhook process takes requests until it exits), back in once ready again.
					const server = `n8n_webhooks/n8n-webhook-${index + 1}`;
					await front!.admin(`set server ${server} state drain`);
					await frontServerReaches(server, (s) => s.sessions === 0, 60_000);
					const instance = webhooks[index]!;
					webhooks[index] = undefined;
					await stopWithin(instance, graceMs);
					await startWebhook(index);
					await front!.admin(`set server ${server} state ready`);
					await frontServerReaches(server, (s) => s.status === 'UP', 30_000);
				} else if (kind === 'worker' && workers[index] && alive[index]) {
					await stopWithin(workers[index]!, graceMs);
					alive[index] = false;
					await startWorker(index);
				} else {
					throw new Error(`no running n8n process called "${name}"`);
				}
			},
			async restartPostgres(downMs) {
				const script = documentedPostgresRestart();
				const servers = webhookPlaces.map((_, i) => `n8n_webhooks/n8n-webhook-${i + 1}`);
				await front!.admin('disable frontend n8n');
				try {
					for (const server of servers) await front!.admin(`set server ${server} state maint`);
					for (const server of servers) {
						await frontServerReaches(server, (s) => s.sessions === 0, 120_000);
					}
					const deadline = Date.now() + 300_000;
					while (
						Number(queryPostgres(postgres, script.openExecutionsSql)) > 0 &&
						Date.now() < deadline
					) {
						await new Promise((resolve) => setTimeout(resolve, 1000));
					}
					await postgres.restart(downMs);
					const running = [main, ...webhooks, ...workers.filter((_, i) => alive[i])];
					for (const instance of running) if (instance) await readyAgain(instance.url, 240_000);
				} finally {
					for (const server of servers) await front!.admin(`set server ${server} state ready`);
					for (const server of servers) {
						await frontServerReaches(server, (s) => s.status === 'UP', 30_000);
					}
					await front!.admin('enable frontend n8n');
				}
			},
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}

/** What deploy/restart-postgres.sh waits on before PostgreSQL goes, read from the script. */
function documentedPostgresRestart(): { openExecutionsSql: string } {
	const script = readFileSync(path.join(repoRoot, 'deploy', 'restart-postgres.sh'), 'utf8');
	const sql = /^OPEN_EXECUTIONS_SQL="(.+)"$/m.exec(script)?.[1];
	if (!sql) throw new Error('deploy/restart-postgres.sh sets no OPEN_EXECUTIONS_SQL');
	return { openExecutionsSql: sql };
}

async function readyAgain(url: string, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const status = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) })
			.then((res) => res.status)
			.catch(() => 0);
		if (status === 200) return;
		if (Date.now() > deadline) throw new Error(`${url} not ready again (${status})`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}
