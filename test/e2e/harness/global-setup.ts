import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { defaultOwner, N8nClient } from './client';
import { databaseFor, startN8nOnDatabase } from './database';
import { assertPackageLoaded, killAllOnSignals, type N8nInstance } from './n8n-process';
import { installPackage, packageName, packPackage } from './package';
import { artifactsDir, ensureRuntime } from './paths';
import {
	QUEUE_RECOVERY_SETTINGS,
	startQueueCluster,
	WORKER_CONCURRENCY,
	type QueueCluster,
} from './queue';
import { startControlServer, type ControlServer } from './queue-control';
import { stateFile, stateFileFor, type SuiteState } from './state';

declare global {
	var __n8nE2e: { instance: N8nInstance; userFolder: string } | undefined;
	var __n8nE2eQueue: { cluster: QueueCluster; control: ControlServer } | undefined;
}

const phase = async <T>(label: string, work: () => T | Promise<T>): Promise<T> => {
	const started = Date.now();
	const result = await work();
	process.stderr.write(`[e2e] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
	return result;
};

/**
 * One n8n for the whole e2e project; `npm run test:e2e` has built the package before. The
 * e2e-queue project (its `globals` say queue) gets queue mode instead: PostgreSQL, Redis, a main,
 * a webhook process and workers.
 */
export default async function globalSetup(
	_globalConfig?: unknown,
	projectConfig?: { globals?: Record<string, unknown> },
): Promise<void> {
	process.stderr.write('\n');
	await phase('runtime (Node 24 + n8n)', () => ensureRuntime());
	const queue = projectConfig?.globals?.__N8N_E2E_MODE__ === 'queue';
	// A folder per mode: CI runs the queue suite while the regular one installs from its tarball.
	const tarball = await phase('npm pack', () =>
		packPackage(path.join(artifactsDir, 'pack', queue ? 'queue' : 'regular')),
	);
	if (queue) return await queueSetup(tarball);
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	killAllOnSignals(() => {
		rmSync(userFolder, { recursive: true, force: true });
		rmSync(stateFile, { force: true });
	});
	let instance: N8nInstance | undefined;
	try {
		await phase('install package into user folder', () => installPackage(userFolder, tarball));
		instance = await phase(`n8n start (${databaseFor()})`, () =>
			startN8nOnDatabase({ name: 'e2e', userFolder }),
		);
		assertPackageLoaded(instance, packageName);
		const { apiKey, session } = await signIn(instance.url);
		writeState({
			mode: 'regular',
			n8nUrl: instance.url,
			webhookUrl: instance.url,
			apiKey,
			session,
			owner: defaultOwner,
			userFolder,
			logFile: instance.logFile,
			tarball,
		});
		globalThis.__n8nE2e = { instance, userFolder };
	} catch (error) {
		// jest skips global teardown when global setup throws.
		await instance?.stop();
		rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}
}

async function signIn(url: string) {
	const client = new N8nClient(url);
	return await phase('owner, login, API key', async () => {
		await client.signIn(defaultOwner);
		const apiKey = await client.createApiKey();
		return { apiKey, session: client.session };
	});
}

function writeState(state: SuiteState) {
	const file = stateFileFor(state.mode);
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(state, null, 2));
}

/**
 * With E2E_QUEUE_HOLD_FILE set, the cluster is started and the tests wait until that file exists:
 * CI starts the queue suite early, on the CPU time the files that run alone leave idle, and lets
 * its tests begin once those files are done (.ci/run). Bounded: after an hour the tests begin.
 */
async function heldUntilReleased(): Promise<void> {
	const holdFile = process.env.E2E_QUEUE_HOLD_FILE;
	if (!holdFile) return;
	await phase('held until released (E2E_QUEUE_HOLD_FILE)', async () => {
		const deadline = Date.now() + 60 * 60_000;
		while (!existsSync(holdFile) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	});
}

async function queueSetup(tarball: string): Promise<void> {
	let cluster: QueueCluster | undefined;
	let control: ControlServer | undefined;
	killAllOnSignals(() => rmSync(stateFileFor('queue'), { force: true }));
	try {
		cluster = await phase('queue mode: PostgreSQL, Redis, main, webhook, workers, front', () =>
			startQueueCluster({ tarball }),
		);
		const steps = Object.entries(cluster.timings).map(
			([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`,
		);
		process.stderr.write(`[e2e]   ${steps.join(', ')}\n`);
		control = await startControlServer(cluster);
		const { apiKey, session } = await signIn(cluster.main.url);
		writeState({
			mode: 'queue',
			n8nUrl: cluster.main.url,
			webhookUrl: cluster.webhook.url,
			apiKey,
			session,
			owner: defaultOwner,
			userFolder: cluster.main.userFolder,
			logFile: cluster.main.logFile,
			tarball,
			queue: {
				controlUrl: control.url,
				startupMs: cluster.startupMs,
				workerConcurrency: WORKER_CONCURRENCY,
				recoverySettings: QUEUE_RECOVERY_SETTINGS,
				frontUrl: cluster.front.url,
				redisPort: cluster.redis.port,
				postgres: {
					port: cluster.postgres.port,
					user: cluster.postgres.user,
					database: cluster.postgres.database,
				},
				processes: cluster.processes(),
			},
		});
		globalThis.__n8nE2eQueue = { cluster, control };
		await heldUntilReleased();
	} catch (error) {
		await control?.close();
		await cluster?.stop();
		throw error;
	}
}
