import { execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

import { freePort, killAllOnSignals, logTail, spawnInGroup, stopGroup } from './n8n-process';
import { artifactsDir, repoRoot } from './paths';

/** A server the queue-mode cluster needs (Redis, PostgreSQL), started from Debian's packages. */
export interface Service {
	port: number;
	logFile: string;
	stop(): Promise<void>;
	/** Stops the server the way an update or `docker restart` does, then starts it on its data. */
	restart(downMs: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function findProgram(name: string, candidates: string[], aptPackage: string): string {
	for (const candidate of candidates) if (existsSync(candidate)) return candidate;
	for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
		const file = path.join(dir, name);
		if (dir && existsSync(file)) return file;
	}
	throw new Error(
		`${name} not found: queue mode needs Debian's ${aptPackage} (apt-get install -y ${aptPackage})`,
	);
}

async function waitFor(
	label: string,
	child: ChildProcess,
	logFile: string,
	probe: () => Promise<boolean>,
	timeoutMs: number,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) break;
		if (await probe().catch(() => false)) return;
		await sleep(100);
	}
	await stopGroup(child, 'SIGKILL');
	throw new Error(
		`${label} did not become ready in ${timeoutMs / 1000} s\n--- tail of ${logFile} ---\n${logTail(logFile)}`,
	);
}

/** One request/answer exchange on a fresh loopback connection. */
function exchange(port: number, request: string, timeoutMs = 1000): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		let answer = '';
		socket.setTimeout(timeoutMs, () => socket.destroy(new Error('timeout')));
		socket.on('connect', () => socket.write(request));
		socket.on('data', (chunk) => {
			answer += chunk.toString('utf8');
			if (answer.includes('\r\n')) socket.end();
		});
		socket.on('close', () => resolve(answer));
		socket.on('error', reject);
	});
}

/** Redis's settings in deploy/compose.yaml: its service's `command`, after the program's name. */
export function shippedRedisSettings(): string[] {
	const compose = parse(readFileSync(path.join(repoRoot, 'deploy', 'compose.yaml'), 'utf8')) as {
		services: { redis: { command: string[] } };
	};
	const [program, ...settings] = compose.services.redis.command;
	if (program !== 'redis-server') throw new Error('deploy/compose.yaml: redis runs redis-server');
	return settings;
}

/**
 * Run with the shipped settings (an append-only file, written before each answer), in a folder
 * that lives as long as the run: a restart keeps the queue, as the stack's volume does.
 */
export async function startRedis(name = 'redis'): Promise<Service> {
	const bin = findProgram('redis-server', ['/usr/bin/redis-server'], 'redis-server');
	const port = await freePort();
	const logFile = path.join(artifactsDir, 'logs', `${name}.log`);
	const dir = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-redis-'));
	killAllOnSignals(() => rmSync(dir, { recursive: true, force: true }));
	const args = [
		'--bind',
		'127.0.0.1',
		'--port',
		String(port),
		...shippedRedisSettings(),
		'--protected-mode',
		'yes',
		'--daemonize',
		'no',
		'--dir',
		dir,
	];
	let child: ChildProcess;
	const run = async () => {
		child = spawnInGroup(bin, args, { logFile, cwd: dir });
		await waitFor(
			'Redis',
			child,
			logFile,
			async () => (await exchange(port, 'PING\r\n')).startsWith('+PONG'),
			15_000,
		);
	};
	try {
		await run();
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	return {
		port,
		logFile,
		stop: async () => {
			await stopGroup(child, 'SIGTERM', 5000);
			rmSync(dir, { recursive: true, force: true });
		},
		restart: async (downMs) => {
			await stopGroup(child, 'SIGTERM', 5000);
			await sleep(downMs);
			await run();
		},
	};
}

export interface PostgresService extends Service {
	user: string;
	database: string;
}

export function postgresBinDir(): string {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root)
				.filter((v) => existsSync(path.join(root, v, 'bin', 'postgres')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (versions.length > 0) return path.join(root, versions[0], 'bin');
	return path.dirname(findProgram('postgres', [], 'postgresql'));
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's `postgres` user. */
function clusterOwner(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const line = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((entry) => entry.startsWith('postgres:'));
	if (!line) throw new Error('running as root, but there is no "postgres" user to own the cluster');
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A throwaway cluster: a new data folder, TCP on 127.0.0.1 only (no Unix socket), trust
 * authentication for its one user, and durability off (fsync, synchronous commit), since the data
 * dies with the run.
 */
export async function startPostgres(name = 'postgres'): Promise<PostgresService> {
	const bin = postgresBinDir();
	const owner = clusterOwner();
	const user = 'n8n';
	const port = await freePort();
	const logFile = path.join(artifactsDir, 'logs', `${name}.log`);
	const dataDir = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-pg-'));
	killAllOnSignals(() => rmSync(dataDir, { recursive: true, force: true }));
	if (owner) chownSync(dataDir, owner.uid, owner.gid);
	const asOwner = { uid: owner?.uid, gid: owner?.gid, cwd: dataDir };
	try {
		execFileSync(
			path.join(bin, 'initdb'),
			['-D', dataDir, '-U', user, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
			{ ...asOwner, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 },
		);
	} catch (error) {
		rmSync(dataDir, { recursive: true, force: true });
		throw new Error(`initdb failed: ${(error as { stderr?: Buffer }).stderr?.toString() ?? error}`);
	}
	const args = [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'unix_socket_directories=',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
		'-c',
		'max_connections=200',
	];
	const isReady = path.join(bin, 'pg_isready');
	let child: ChildProcess;
	const run = async () => {
		child = spawnInGroup(path.join(bin, 'postgres'), args, { ...asOwner, logFile });
		await waitFor(
			'PostgreSQL',
			child,
			logFile,
			async () => {
				try {
					execFileSync(isReady, ['-h', '127.0.0.1', '-p', String(port), '-U', user, '-t', '1'], {
						stdio: 'ignore',
					});
					return true;
				} catch {
					return false;
				}
			},
			30_000,
		);
	};
	try {
		await run();
	} catch (error) {
		rmSync(dataDir, { recursive: true, force: true });
		throw error;
	}
	// SIGINT is PostgreSQL's "fast" shutdown: it ends sessions instead of waiting for them, as
	// `docker stop` (SIGTERM is its "smart" one, which the official image maps to fast) does.
	const stop = async () => {
		await stopGroup(child, 'SIGINT', 10_000);
		rmSync(dataDir, { recursive: true, force: true });
	};
	const restart = async (downMs: number) => {
		await stopGroup(child, 'SIGINT', 10_000);
		await sleep(downMs);
		await run();
	};
	return { port, logFile, user, database: 'postgres', stop, restart };
}
