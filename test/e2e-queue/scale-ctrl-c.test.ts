/**
 * `npm start -- --scale` (docs/production.md: "Ctrl-C stops everything, and its database is thrown
 * away"), run as a user runs it: npm, its shell, tsx and the script in one process group that the
 * terminal's Ctrl-C signals at once. Every process the stack started (they run in groups of their
 * own) must stop and every folder it made must go. A temporary folder of its own (TMPDIR) tells
 * its folders from the queue suite's.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort } from '../e2e/harness/n8n-process';
import { repoRoot } from '../e2e/harness/paths';

const READY = /Ctrl-C stops everything\./;

interface ProcessId {
	pid: number;
	/** Clock ticks after boot (/proc/<pid>/stat field 22): tells a reused pid from the process. */
	startedAt: string;
	command: string;
}

function readProcess(pid: number): (ProcessId & { parent: number }) | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command, which is in parentheses and may hold spaces.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
		return {
			pid,
			parent: Number(fields[1]),
			startedAt: fields[19],
			command,
		};
	} catch {
		return undefined;
	}
}

/** Every process under `root`, at any depth (the stack's run in process groups of their own). */
function descendantsOf(root: number): ProcessId[] {
	const all = readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.map((entry) => readProcess(Number(entry)))
		.filter((p) => p !== undefined);
	const found: ProcessId[] = [];
	let parents = new Set([root]);
	while (parents.size > 0) {
		const children = all.filter((p) => parents.has(p.parent));
		found.push(...children.map(({ pid, startedAt, command }) => ({ pid, startedAt, command })));
		parents = new Set(children.map((p) => p.pid));
	}
	return found;
}

const stillRunning = (processes: ProcessId[]) =>
	processes.filter((p) => readProcess(p.pid)?.startedAt === p.startedAt);

async function until<T>(read: () => T, done: (value: T) => boolean, timeoutMs: number) {
	const deadline = Date.now() + timeoutMs;
	let value = read();
	while (!done(value) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		value = read();
	}
	return value;
}

describe('npm start -- --scale, stopped with Ctrl-C', () => {
	const tmp = mkdtempSync(path.join(os.tmpdir(), 'scale-ctrl-c-'));
	// As /tmp is: run as root, the stack's PostgreSQL runs as user postgres and must reach its folder.
	chmodSync(tmp, 0o1777);

	let started: ProcessId[] = [];

	afterAll(() => {
		for (const { pid } of stillRunning(started)) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// already gone
			}
		}
		rmSync(tmp, { recursive: true, force: true });
	});

	it('stops PostgreSQL, Redis, the front and every n8n process, and removes their folders', async () => {
		const env: NodeJS.ProcessEnv = {};
		for (const [key, value] of Object.entries(process.env)) {
			if (!/^(npm_|JEST_|NODE_OPTIONS$|NODE_ENV$)/.test(key)) env[key] = value;
		}
		const ports = { N8N_PORT: String(await freePort()), SIM_PORT: String(await freePort()) };
		const npm = spawn('npm', ['start', '--', '--scale'], {
			cwd: repoRoot,
			detached: true,
			env: { ...env, ...ports, TMPDIR: tmp },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const exited = new Promise<number | string | null>((resolve) =>
			npm.once('exit', (code, signal) => resolve(signal ?? code)),
		);
		let output = '';
		const ready = new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`not ready in 420 s:\n${output}`)), 420_000);
			npm.stdout.on('data', (chunk) => {
				output += chunk;
				if (READY.test(output)) {
					clearTimeout(timer);
					resolve();
				}
			});
			npm.stderr.on('data', (chunk) => (output += chunk));
			void exited.then((code) => {
				clearTimeout(timer);
				reject(new Error(`exited (${code}) before ready:\n${output}`));
			});
		});
		await ready;

		started = descendantsOf(npm.pid!);
		for (const program of ['postgres', 'redis-server', 'haproxy', 'n8n/bin/n8n']) {
			expect({ program, running: started.some((p) => p.command.includes(program)) }).toEqual({
				program,
				running: true,
			});
		}
		expect(readdirSync(tmp).filter((entry) => entry.startsWith('n8n-')).length).toBeGreaterThan(0);

		process.kill(-npm.pid!, 'SIGINT');
		// npm ends by the signal it was sent once its script has exited (0).
		expect(await exited).toBe('SIGINT');
		const left = await until(
			() => stillRunning(started),
			(processes) => processes.length === 0,
			60_000,
		);
		expect(left).toEqual([]);
		// Left by design, as by any n8n or tsx on the machine: tsx's and Node's compile caches, and
		// n8n's folder for Data Table uploads (n8n creates it in the temporary folder at start).
		const shared = (entry: string) =>
			entry.startsWith('tsx-') || ['node-compile-cache', 'n8nDataTableUploads'].includes(entry);
		expect(readdirSync(tmp).filter((entry) => !shared(entry))).toEqual([]);
		expect(output).toContain('stopping the front, n8n, Redis, PostgreSQL and the simulator');
	}, 600_000);
});
