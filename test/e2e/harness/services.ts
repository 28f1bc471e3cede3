import { execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	chmodSync,
	chownSync,
	cpSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

import { freePort, killAllOnSignals, logTail, spawnInGroup, stopGroup } from './n8n-process';
import { artifactsDir, repoRoot } from './paths';

/** A server the queue-mode cluster needs (Redis from Debian's packages, PostgreSQL 17). */
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
	/** What the server reports as `server_version` (17.10, say). */
	version: string;
}

let postgresBin: string | undefined;

/**
 * The pinned PostgreSQL of scripts/postgres-runtime.sh (installed into .cache on first use), or
 * else an operating system's PostgreSQL 17 or newer: n8n 2.41 warns on anything older.
 */
export function postgresBinDir(): string {
	if (postgresBin) return postgresBin;
	let failure: string;
	try {
		postgresBin = execFileSync('bash', [path.join(repoRoot, 'scripts', 'postgres-runtime.sh')], {
			cwd: repoRoot,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
			timeout: 300_000,
		}).trim();
		return postgresBin;
	} catch (error) {
		failure = (error as Error).message;
	}
	const root = '/usr/lib/postgresql';
	const system = existsSync(root)
		? readdirSync(root)
				.filter((v) => Number(v) >= 17 && existsSync(path.join(root, v, 'bin', 'postgres')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (system.length > 0) {
		postgresBin = path.join(root, system[0], 'bin');
		return postgresBin;
	}
	throw new Error(
		`no PostgreSQL 17: scripts/postgres-runtime.sh could not install it (${failure}), and ${root} holds no version 17 or newer`,
	);
}

/** psql, for the bench's reads of queue mode's database: any version reads these tables. */
export function psqlProgram(): string {
	const root = '/usr/lib/postgresql';
	const versions = existsSync(root)
		? readdirSync(root)
				.filter((v) => existsSync(path.join(root, v, 'bin', 'psql')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	return findProgram(
		'psql',
		versions.map((v) => path.join(root, v, 'bin', 'psql')),
		'postgresql-client',
	);
}

/** One value from the cluster's database (`SELECT count(*) …`), as text. */
export function queryPostgres(postgres: PostgresService, sql: string): string {
	return execFileSync(
		psqlProgram(),
		[
			'-h',
			'127.0.0.1',
			'-p',
			`${postgres.port}`,
			'-U',
			postgres.user,
			'-d',
			postgres.database,
			'-Atc',
			sql,
		],
		{ encoding: 'utf8', timeout: 30_000 },
	).trim();
}

interface ClusterOwner {
	name: string;
	uid: number;
	gid: number;
}

/**
 * PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's `postgres` user, or
 * to `nobody` where no server package made that user (CI installs only the client).
 */
function clusterOwner(): ClusterOwner | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const users = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.map((entry) => entry.split(':'));
	const user =
		users.find(([name]) => name === 'postgres') ?? users.find(([name]) => name === 'nobody');
	if (!user) {
		throw new Error('running as root, but no "postgres" or "nobody" user can own the cluster');
	}
	return { name: user[0], uid: Number(user[2]), gid: Number(user[3]) };
}

/**
 * That user cannot reach .cache when a folder above it is closed to others (a clone in root's
 * home): the server then runs from a copy in the temporary folder, made once per installation.
 */
function reachableBy(owner: ClusterOwner | undefined, bin: string): string {
	const runs = (dir: string) => {
		try {
			execFileSync(path.join(dir, 'postgres'), ['--version'], {
				uid: owner?.uid,
				gid: owner?.gid,
				stdio: 'ignore',
			});
			return true;
		} catch {
			return false;
		}
	};
	if (!owner || runs(bin)) return bin;
	const installation = path.dirname(bin);
	const id = createHash('sha256').update(installation).digest('hex').slice(0, 12);
	const copy = path.join(os.tmpdir(), `n8n-e2e-postgres-${id}`);
	if (!existsSync(copy)) {
		const partial = mkdtempSync(`${copy}-partial-`);
		cpSync(installation, partial, { recursive: true, verbatimSymlinks: true });
		chmodSync(partial, 0o755);
		try {
			renameSync(partial, copy);
		} catch {
			// Another run made it meanwhile.
			rmSync(partial, { recursive: true, force: true });
		}
	}
	const copied = path.join(copy, path.basename(bin));
	if (!runs(copied)) {
		throw new Error(`user ${owner.name} can run neither ${bin} nor its copy in ${copy}`);
	}
	return copied;
}

/**
 * PostgreSQL's start-up exchange as a client opens it (protocol 3.0, trust authentication, no
 * TLS): resolves with the server's version once it takes connections for `user` on `database`,
 * rejects with the server's message while it starts or refuses.
 */
export function postgresHandshake(
	port: number,
	user: string,
	database: string,
	timeoutMs = 1000,
): Promise<string> {
	return new Promise((resolve, reject) => {
		const params = Buffer.from(`user\0${user}\0database\0${database}\0\0`);
		const header = Buffer.alloc(8);
		header.writeInt32BE(header.length + params.length, 0);
		header.writeInt32BE(3 << 16, 4);
		const socket = net.connect({ host: '127.0.0.1', port });
		let pending = Buffer.alloc(0);
		let version = '';
		const fail = (error: Error) => {
			socket.destroy();
			reject(error);
		};
		socket.setTimeout(timeoutMs, () => fail(new Error('timeout')));
		socket.on('connect', () => socket.write(Buffer.concat([header, params])));
		socket.on('data', (chunk) => {
			pending = Buffer.concat([pending, chunk]);
			while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
				const type = String.fromCharCode(pending[0]);
				const body = pending.subarray(5, 1 + pending.readInt32BE(1));
				pending = pending.subarray(1 + pending.readInt32BE(1));
				const fields = body.toString('utf8').split('\0');
				if (type === 'E') {
					const message = fields.find((field) => field.startsWith('M'))?.slice(1);
					return fail(new Error(message ?? 'refused'));
				}
				if (type === 'R' && body.readInt32BE(0) !== 0) {
					return fail(new Error('the server asks for a password'));
				}
				if (type === 'S' && fields[0] === 'server_version') version = fields[1];
				if (type === 'Z') {
					// Terminate, so that the server does not log an unexpected end of file.
					socket.end(Buffer.from([0x58, 0, 0, 0, 4]));
					return resolve(version);
				}
			}
		});
		socket.on('error', fail);
		socket.on('close', () => reject(new Error('connection closed before the server was ready')));
	});
}

/**
 * A throwaway cluster: a new data folder, TCP on 127.0.0.1 only (no Unix socket), trust
 * authentication for its one user, and durability off (fsync, synchronous commit), since the data
 * dies with the run.
 */
export async function startPostgres(name = 'postgres'): Promise<PostgresService> {
	const owner = clusterOwner();
	const bin = reachableBy(owner, postgresBinDir());
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
		const as = owner ? ` (as user ${owner.name})` : '';
		throw new Error(
			`initdb failed${as}: ${(error as { stderr?: Buffer }).stderr?.toString() || error}`,
		);
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
	let child: ChildProcess;
	let version = '';
	const run = async () => {
		child = spawnInGroup(path.join(bin, 'postgres'), args, { ...asOwner, logFile });
		await waitFor(
			'PostgreSQL',
			child,
			logFile,
			async () => {
				version = await postgresHandshake(port, user, 'postgres');
				return true;
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
	return { port, logFile, user, database: 'postgres', version, stop, restart };
}
