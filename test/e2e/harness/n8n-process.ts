import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { artifactsDir, ensureRuntime, repoRoot } from './paths';

const publicServiceHostScript = path.join(repoRoot, 'test', 'support', 'public-service-host.cjs');

/** `start` is the regular (or queue-mode main) process; `worker` and `webhook` exist in queue mode. */
export type N8nCommand = 'start' | 'worker' | 'webhook';

export interface N8nOptions {
	/** Label used for the log file name. */
	name: string;
	command?: N8nCommand;
	/** Extra command-line arguments, e.g. `--concurrency=5` for a worker. */
	args?: string[];
	/** Folder that receives `.n8n/` (database, settings, community nodes). */
	userFolder: string;
	port?: number;
	/** Keep it stable across restarts of a persistent user folder, or credentials become unreadable. */
	encryptionKey?: string;
	env?: Record<string, string>;
	readyTimeoutMs?: number;
	/** The task broker's port (a free one by default): an external task runner connects to it. */
	brokerPort?: number;
	/** A process of the production stack's twin: none of the harness's own settings below. */
	stack?: boolean;
}

export interface N8nInstance {
	url: string;
	port: number;
	/** Where n8n's task broker listens (N8N_RUNNERS_BROKER_PORT). */
	brokerPort: number;
	userFolder: string;
	logFile: string;
	pid: number;
	/** Resolves when the process has exited, however it ended. */
	exited: Promise<void>;
	stop(): Promise<void>;
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
	if (child.pid === undefined || !isRunning(child)) return;
	try {
		// Negative pid: the whole group, so n8n's task runner goes too.
		process.kill(-child.pid, signal);
	} catch {
		// already gone
	}
}

const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/**
 * Starts a program in a process group of its own, output to `logFile`, tracked so that it is
 * killed with everything else when the test run ends or is interrupted.
 */
export function spawnInGroup(
	command: string,
	args: string[],
	options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string; uid?: number; gid?: number },
): ChildProcess {
	mkdirSync(path.dirname(options.logFile), { recursive: true });
	const log = openSync(options.logFile, 'w');
	try {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			uid: options.uid,
			gid: options.gid,
			detached: true,
			stdio: ['ignore', log, log],
		});
		running.add(child);
		child.once('exit', () => running.delete(child));
		// Without a listener, a failed spawn would be thrown as an uncaught error.
		child.once('error', () => running.delete(child));
		return child;
	} finally {
		closeSync(log);
	}
}

/** Asks the group to stop with `signal`, kills it after `graceMs`, and waits for the leader to exit. */
export async function stopGroup(
	child: ChildProcess,
	signal: NodeJS.Signals = 'SIGTERM',
	graceMs = 10_000,
): Promise<void> {
	if (child.pid === undefined) return;
	if (isRunning(child)) {
		const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		killGroup(child, signal);
		const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
		await exited;
		clearTimeout(timer);
	}
	// Children (n8n's task runner, Postgres backends) may outlive the leader by a moment; the group
	// id stays valid until the last of them goes.
	try {
		process.kill(-child.pid, 'SIGKILL');
	} catch {
		// the whole group is gone
	}
}

const cleanups: Array<() => void> = [];

function killAllNow() {
	for (const child of running) killGroup(child, 'SIGKILL');
	for (const cleanup of cleanups.splice(0)) {
		try {
			cleanup();
		} catch {
			// best effort while exiting
		}
	}
}

// A crashed test run must not leave n8n listening.
process.on('exit', killAllNow);

const HOOKED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const signalHandlers = new Map<NodeJS.Signals, () => void>();

/**
 * For test runs: Ctrl-C or a CI time-out (SIGINT/SIGTERM/SIGHUP) kills every n8n started here and
 * runs `cleanup`, then lets the signal end the process as it would have. n8n runs in its own
 * process group, so the terminal's Ctrl-C does not reach it by itself.
 */
export function killAllOnSignals(cleanup?: () => void): void {
	if (cleanup) cleanups.push(cleanup);
	if (signalHandlers.size > 0) return;
	for (const signal of HOOKED_SIGNALS) {
		const handler = () => {
			killAllNow();
			process.kill(process.pid, signal);
		};
		signalHandlers.set(signal, handler);
		process.once(signal, handler);
	}
}

/**
 * Takes back the handlers of `killAllOnSignals`, and only those, for a caller that stops what it
 * started in order instead. Other listeners stay: tsx's own, which a `removeAllListeners` took
 * away, made tsx SIGKILL the script 60 ms into a Ctrl-C, before anything was stopped.
 */
export function releaseSignals(): void {
	for (const [signal, handler] of signalHandlers) process.removeListener(signal, handler);
	signalHandlers.clear();
}

export function logTail(file: string, lines = 60): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// jest sets NODE_ENV=test, which changes n8n's behaviour; npm and jest variables leak otherwise.
		if (/^(npm_|JEST_|NODE_OPTIONS$|NODE_ENV$)/.test(key)) continue;
		env[key] = value;
	}
	return { ...env, ...extra };
}

/**
 * Every setting an n8n started here gets (the environment it inherits aside): this harness's own,
 * then `env` (deploy/n8n.env and the run's addresses, for the stack's twin) over them.
 * test/unit/package-wide/twinEnvironment.test.ts holds the twin's to what compose.yaml gives each role.
 */
export function n8nSettings(settings: {
	command: N8nCommand;
	port: number;
	brokerPort: number;
	userFolder: string;
	encryptionKey: string;
	/** n8n's bin/n8n: whether it ships a module to turn off. */
	n8nMain?: string;
	env?: Record<string, string>;
	stack?: boolean;
}): Record<string, string> {
	const { port, brokerPort } = settings;
	const url = `http://127.0.0.1:${port}`;
	// For the tests of one n8n; the stack's twin keeps n8n's defaults (compose.yaml's).
	const harness: Record<string, string> = settings.stack
		? {}
		: {
				N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
				N8N_PUBLIC_API_DISABLED: 'false',
				N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
				N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
				N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL ?? 'info',
				N8N_LOG_OUTPUT: 'console',
				// n8n 2.41 saves an execution's data whatever its size but returns none above 100 MiB
				// (the editor shows it without data); the large-delivery tests read a 100 MiB job's
				// items back.
				EXECUTIONS_DATA_MAX_DISPLAY_SIZE: String(256 * 1024 * 1024),
				// The stack keeps n8n's secure cookie, which signs in over http on 127.0.0.1 as on
				// localhost (n8n's editor refuses it only at other http addresses, and in Safari).
				N8N_SECURE_COOKIE: 'false',
				N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			};
	return {
		NODE_ENV: 'production',
		N8N_USER_FOLDER: settings.userFolder,
		DB_TYPE: 'sqlite',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		N8N_WEBHOOK_URL: `${url}/`,
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_ENCRYPTION_KEY: settings.encryptionKey,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_AI_ENABLED: 'false',
		// A 2.x module that reaches the internet; n8n 1.x refuses to start on an unknown module name.
		...(settings.n8nMain && hasModule(settings.n8nMain, 'mcp-registry')
			? { N8N_DISABLED_MODULES: 'mcp-registry' }
			: {}),
		...harness,
		// A service on a public host name, for the callback checks: that name resolves to the
		// simulator on 127.0.0.1 in n8n's processes only.
		NODE_OPTIONS: `--require ${JSON.stringify(publicServiceHostScript)}`,
		// A worker serves no editor: its port is the health server's.
		...(settings.command === 'worker'
			? {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(port),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				}
			: {}),
		...settings.env,
	};
}

export async function startN8n(options: N8nOptions): Promise<N8nInstance> {
	const { nodeBin, n8nMain } = ensureRuntime();
	const command = options.command ?? 'start';
	const port = options.port ?? (await freePort());
	const brokerPort = options.brokerPort ?? (await freePort());
	const url = `http://127.0.0.1:${port}`;
	const logDir = path.join(artifactsDir, 'logs');
	mkdirSync(logDir, { recursive: true });
	mkdirSync(options.userFolder, { recursive: true });
	const logFile = path.join(logDir, `n8n-${options.name}.log`);

	const env = childEnv({
		PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`,
		...n8nSettings({
			command,
			port,
			brokerPort,
			userFolder: options.userFolder,
			encryptionKey: options.encryptionKey ?? randomBytes(24).toString('hex'),
			n8nMain,
			env: options.env,
			stack: options.stack,
		}),
	});

	const child = spawnInGroup(
		path.join(nodeBin, 'node'),
		[n8nMain, command, ...(options.args ?? [])],
		{
			cwd: options.userFolder,
			env,
			logFile,
		},
	);
	// The stack's processes get compose.yaml's stop_grace_period over n8n's own 30 s shutdown.
	const stop = () => stopGroup(child, 'SIGTERM', options.stack ? 40_000 : 10_000);
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

	try {
		// n8n 1.x runs its first database migrations for minutes on a busy machine.
		await waitReady(url, child, options.readyTimeoutMs ?? 300_000, command === 'start');
	} catch (error) {
		await stop();
		throw new Error(
			`${(error as Error).message}\n--- tail of ${path.relative(process.cwd(), logFile)} ---\n${logTail(logFile)}`,
		);
	}
	return {
		url,
		port,
		brokerPort,
		userFolder: options.userFolder,
		logFile,
		pid: child.pid!,
		exited,
		stop,
	};
}

/**
 * n8n starts even when a community package fails to load (it only logs it), which would surface
 * later as confusing "unknown type" errors.
 */
export function assertPackageLoaded(instance: N8nInstance, packageName: string): void {
	const log = readFileSync(instance.logFile, 'utf8');
	const marker = `Failed to load package "${packageName}"`;
	const at = log.indexOf(marker);
	if (at >= 0) {
		throw new Error(`n8n could not load the package:\n${log.slice(at, at + 1500)}`);
	}
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number, servesRest: boolean) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n exited during start-up (code ${child.exitCode ?? child.signalCode})`);
		}
		try {
			const res = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
			// n8n 1.x reports ready before its REST routes are mounted (404 until then); workers and
			// webhook processes serve no REST routes.
			if (res.status === 200 && (!servesRest || (await restMounted(url)))) return;
		} catch {
			// not listening yet
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	throw new Error(`n8n not ready at ${url} after ${timeoutMs / 1000} s`);
}

async function restMounted(url: string): Promise<boolean> {
	const res = await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(2000) });
	await res.body?.cancel();
	return res.status !== 404;
}

/** Whether this n8n ships a backend module of that name (2.x modules live under dist/modules). */
function hasModule(n8nMain: string, name: string): boolean {
	return existsSync(path.join(path.dirname(n8nMain), '..', 'dist', 'modules', name));
}
