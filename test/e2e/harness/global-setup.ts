import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { defaultOwner, N8nClient } from './client';
import { databaseFor, startN8nOnDatabase } from './database';
import { assertPackageLoaded, killAllOnSignals, type N8nInstance } from './n8n-process';
import { installPackage, packageName, packPackage } from './package';
import { artifactsDir, ensureRuntime } from './paths';
import { descendantsOf, killAll } from './processTree';
import { WORKER_CONCURRENCY } from './queue';
import { QueueControl } from './queue-control';
import { stateFile, stateFileFor, type SuiteState } from './state';
import { startTwin, stopTwin, type TwinRecord } from './twin';

declare global {
	var __n8nE2e: { instance: N8nInstance; userFolder: string } | undefined;
	var __n8nE2eQueue: { twin: TwinRecord } | undefined;
}

const phase = async <T>(label: string, work: () => T | Promise<T>): Promise<T> => {
	const started = Date.now();
	const result = await work();
	process.stderr.write(`[e2e] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
	return result;
};

/**
 * One n8n for the whole e2e project; `npm run test:e2e` has built the package before. The
 * e2e-queue project (its `globals` say queue) gets the production stack's twin instead.
 */
export default async function globalSetup(
	_globalConfig?: unknown,
	projectConfig?: { globals?: Record<string, unknown> },
): Promise<void> {
	process.stderr.write('\n');
	await phase('runtime (Node 24 + n8n)', () => ensureRuntime());
	const queue = projectConfig?.globals?.__N8N_E2E_MODE__ === 'queue';
	// The twin packs and installs the package itself, as `npm start -- --scale` does.
	if (queue) return await queueSetup();
	const tarball = await phase('npm pack', () =>
		packPackage(path.join(artifactsDir, 'pack', 'regular')),
	);
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

async function signIn(url: string, owner = defaultOwner) {
	const client = new N8nClient(url);
	return await phase('owner, login, API key', async () => {
		await client.signIn(owner);
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

/**
 * Queue mode is the production stack's twin, started as users start it (`npm start -- --scale
 * --control`): deploy/n8n.env, two webhook processes behind deploy/haproxy.cfg, two workers with
 * their task runners, PostgreSQL 17 and Redis. Tests reach n8n through the front, as the service
 * and a browser do. The examples it imports are unpublished: the tests publish their own.
 */
async function queueSetup(): Promise<void> {
	let twin: TwinRecord | undefined;
	killAllOnSignals(() => rmSync(stateFileFor('queue'), { force: true }));
	try {
		const started = Date.now();
		const outputFile = path.join(artifactsDir, 'logs', 'twin-npm-start.log');
		mkdirSync(path.dirname(outputFile), { recursive: true });
		twin = await phase("queue mode: the stack's twin (npm start -- --scale --control)", () =>
			startTwin(outputFile),
		);
		const startupMs = Date.now() - started;
		killAllOnSignals(() => killAll([...twin!.started, ...descendantsOf(twin!.pid)]));
		const control = new QueueControl(twin.controlUrl);
		const [addresses, processes] = await Promise.all([control.addresses(), control.processes()]);
		const { apiKey, session } = await signIn(twin.frontUrl, twin.owner);
		await unpublishAll(twin.frontUrl, apiKey);
		const main = processes.find((p) => p.name === 'main')!;
		writeState({
			mode: 'queue',
			n8nUrl: twin.frontUrl,
			webhookUrl: twin.frontUrl,
			apiKey,
			session,
			owner: twin.owner,
			logFile: main.logFile,
			tarball: '',
			queue: {
				controlUrl: twin.controlUrl,
				startupMs,
				workerConcurrency: WORKER_CONCURRENCY,
				frontUrl: addresses.frontUrl,
				redisPort: addresses.redisPort,
				postgres: addresses.postgres,
				processes,
				twin,
			},
		});
		globalThis.__n8nE2eQueue = { twin };
		await heldUntilReleased();
	} catch (error) {
		if (twin) await stopTwin(twin);
		throw error;
	}
}

/** Unpublishes every published workflow (the examples `npm start` imports and publishes). */
async function unpublishAll(url: string, apiKey: string): Promise<void> {
	const client = new N8nClient(url);
	client.apiKey = apiKey;
	const { data } = await client.api<{ data: Array<{ id: string }> }>(
		'GET',
		'/workflows?active=true&limit=250',
	);
	for (const { id } of data) await client.deactivate(id);
}
