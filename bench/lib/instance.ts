import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createSimulator, type Simulator } from '../../simulator/server';
import { defaultOwner, N8nClient } from '../../test/e2e/harness/client';
import { builtCredentialTypes, simulatorCredentialData } from '../../test/e2e/harness/fixtures';
import {
	assertPackageLoaded,
	killAllOnSignals,
	startN8n,
	type N8nInstance,
} from '../../test/e2e/harness/n8n-process';
import { installPackage, packageName, packPackage } from '../../test/e2e/harness/package';
import { artifactsDir, ensureRuntime } from '../../test/e2e/harness/paths';
import { log } from './rounds';

export const benchArtifacts = path.join(artifactsDir, 'bench');

/**
 * What differs from the e2e instance: less logging (a log line per execution is noise in a
 * timing), and room for a 50,000-product callback body (n8n's default cap is 16 MiB).
 * Execution saving is set per workflow (see `saveSettings`), not here.
 */
export const BENCH_N8N_ENV: Record<string, string> = {
	N8N_LOG_LEVEL: 'warn',
	N8N_PAYLOAD_SIZE_MAX: '256',
};

export interface BenchEnvironment {
	/** The packed package installed in this n8n (for a bench that starts n8n processes of its own). */
	tarball: string;
	client: N8nClient;
	instance: N8nInstance;
	simulator: Simulator;
	/** Requests per Second 0 (no pacing): benches not about the service's limit. */
	credentials: Record<string, { id: string; name: string }>;
	/** Requests per Second at the credential's default (10). */
	limitedCredentials: Record<string, { id: string; name: string }>;
	/** Stops n8n and starts it again on the same port, database and encryption key. */
	restart(): Promise<N8nInstance>;
	close(): Promise<void>;
}

export interface EnvironmentOptions {
	/** Extra NODE_OPTIONS for n8n, e.g. `--cpu-prof --cpu-prof-dir=...`. */
	nodeOptions?: string;
	/** Environment variables of n8n on top of BENCH_N8N_ENV. */
	n8nEnv?: Record<string, string>;
	/** A packed build of the package to install (the baseline's); the working tree's by default. */
	tarball?: string;
	/** Names n8n's log file (`n8n-<name>.log`); `bench` by default. */
	name?: string;
}

export const UNLIMITED = { review: null, apiKey: null };
/**
 * Requests per Second 0 turns the credential's pacing off: a high rate such as 1,000 would still
 * pass every request one at a time through the pacer's timers, a cost no comparison here is about.
 */
export const UNPACED_REQUESTS_PER_SECOND = 0;

export async function createCredentials(
	client: N8nClient,
	simulator: Simulator,
	label: string,
	overrides: Record<string, number>,
): Promise<Record<string, { id: string; name: string }>> {
	const created: Record<string, { id: string; name: string }> = {};
	for (const credential of builtCredentialTypes()) {
		created[credential.name] = await client.createCredential(
			`${credential.displayName} (${label})`,
			credential.name,
			simulatorCredentialData(credential, simulator, overrides),
		);
	}
	return created;
}

/**
 * Removes `folder` if the bench is interrupted (Ctrl-C, SIGTERM) or exits without removing it.
 * The removal runs in a process of its own: tsx kills the bench with SIGKILL when it has not
 * acknowledged a relayed signal within 60 ms, which cuts short a synchronous removal of a folder
 * of thousands of files.
 */
export function removeWhenInterrupted(folder: string): void {
	killAllOnSignals(() => {
		if (!existsSync(folder)) return;
		spawn('rm', ['-rf', folder], { detached: true, stdio: 'ignore' }).unref();
	});
}

const timed = async <T>(label: string, work: () => T | Promise<T>): Promise<T> => {
	const started = Date.now();
	const result = await work();
	log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return result;
};

/** A bench's own n8n (fresh user folder, the packed package installed) and simulator. */
export async function startEnvironment(
	options: EnvironmentOptions = {},
): Promise<BenchEnvironment> {
	await timed('runtime (Node 24 + n8n)', () => ensureRuntime());
	const tarball =
		options.tarball ??
		(await timed('npm pack', () => packPackage(path.join(benchArtifacts, 'pack'))));
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-'));
	removeWhenInterrupted(userFolder);
	await timed('install package into user folder', () => installPackage(userFolder, tarball));

	const encryptionKey = randomBytes(24).toString('hex');
	const env = { ...BENCH_N8N_ENV, ...options.n8nEnv };
	if (options.nodeOptions) {
		mkdirSync(benchArtifacts, { recursive: true });
		env.NODE_OPTIONS = options.nodeOptions;
	}
	const start = (port?: number) =>
		startN8n({ name: options.name ?? 'bench', userFolder, encryptionKey, port, env });

	let instance = await timed('n8n start', () => start());
	assertPackageLoaded(instance, packageName);
	const client = new N8nClient(instance.url);
	await timed('owner, login, API key', async () => {
		await client.signIn(defaultOwner);
		await client.createApiKey('bench');
	});

	// Jobs never complete on their own during a bench: completion timers would spend the bench
	// process's CPU generating reviews nobody reads. Benches that need completion configure it.
	// Unlimited unless a bench is about the service's limit: those set the limit themselves and use
	// `limitedCredentials`, at the default Requests per Second a user sees. Quick callback retries:
	// the service's 2 h first retry would stall a bench whose callback meets an early 409.
	const simulator = createSimulator({
		completionDelayMs: 3_600_000,
		rateLimit: UNLIMITED,
		callbackRetry: { policy: 'quick' },
	});
	await simulator.start();
	const credentials = await createCredentials(client, simulator, 'bench', {
		requestsPerSecond: UNPACED_REQUESTS_PER_SECOND,
	});
	const limitedCredentials = await createCredentials(client, simulator, 'bench, paced', {});

	const environment: BenchEnvironment = {
		tarball,
		client,
		instance,
		simulator,
		credentials,
		limitedCredentials,
		async restart() {
			await instance.stop();
			instance = await start(instance.port);
			environment.instance = instance;
			return instance;
		},
		async close() {
			await simulator.stop();
			await instance.stop();
			rmSync(userFolder, { recursive: true, force: true });
		},
	};
	return environment;
}
