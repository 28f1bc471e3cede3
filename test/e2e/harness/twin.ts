import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort } from './n8n-process';
import { repoRoot } from './paths';
import { descendantsOf, killAll, type ProcessId } from './processTree';

/**
 * The production stack's twin as users start it (`npm start -- --scale --control`), for the queue
 * suite. It belongs to the process that started it (jest's global setup); test files find it
 * through this record (they run in other module registries).
 */
export interface TwinRecord {
	/** npm's pid: a terminal's Ctrl-C goes to its process group. */
	pid: number;
	/** Every process of the twin once it was ready. */
	started: ProcessId[];
	/** What npm start printed, and prints while it stops. */
	outputFile: string;
	/** Written when npm exits: its signal, or its exit code. */
	exitFile: string;
	/** A temporary folder of its own (TMPDIR): what the twin leaves there is its own. */
	tmp: string;
	frontUrl: string;
	controlUrl: string;
	simulatorUrl: string;
	/** The login `npm start` prints. */
	owner: { email: string; password: string; firstName: string; lastName: string };
}

const READY = /Ctrl-C stops everything\./;
const READY_TIMEOUT_MS = 420_000;

export async function startTwin(outputFile: string): Promise<TwinRecord> {
	const tmp = mkdtempSync(path.join(os.tmpdir(), 'twin-'));
	// As /tmp is: run as root, the stack's PostgreSQL runs as user postgres and must reach its folder.
	chmodSync(tmp, 0o1777);
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/^(npm_|JEST_|NODE_OPTIONS$|NODE_ENV$)/.test(key)) env[key] = value;
	}
	const n8nPort = await freePort();
	const simPort = await freePort();
	const exitFile = `${outputFile}.exit`;
	writeFileSync(exitFile, '');
	const output = openSync(outputFile, 'w');
	const npm = spawn('npm', ['start', '--', '--scale', '--control'], {
		cwd: repoRoot,
		detached: true,
		env: { ...env, N8N_PORT: String(n8nPort), SIM_PORT: String(simPort), TMPDIR: tmp },
		stdio: ['ignore', output, output],
	});
	let exited: string | undefined;
	npm.once('exit', (code, signal) => {
		exited = String(signal ?? code);
		writeFileSync(exitFile, exited);
	});
	const read = () => readFileSync(outputFile, 'utf8');
	const deadline = Date.now() + READY_TIMEOUT_MS;
	while (!READY.test(read())) {
		if (exited !== undefined || Date.now() > deadline) {
			killAll(descendantsOf(npm.pid!));
			throw new Error(
				`npm start -- --scale ${exited === undefined ? `not ready in ${READY_TIMEOUT_MS / 1000} s` : `exited (${exited}) before ready`}:\n${read()}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	const text = read();
	const controlUrl = /^\s*Control\s+(http:\/\/127\.0\.0\.1:\d+)/m.exec(text)?.[1];
	const [, email, password] = /Login\s+(\S+)\s+\/\s+(\S+)/.exec(text) ?? [];
	if (!controlUrl || !email) {
		killAll(descendantsOf(npm.pid!));
		throw new Error(`no control URL or login in the twin's output:\n${text}`);
	}
	return {
		pid: npm.pid!,
		started: descendantsOf(npm.pid!),
		outputFile,
		exitFile,
		tmp,
		frontUrl: `http://127.0.0.1:${n8nPort}`,
		controlUrl,
		simulatorUrl: `http://127.0.0.1:${simPort}`,
		owner: { email, password, firstName: 'Demo', lastName: 'User' },
	};
}

/** What npm's exit file says: undefined while it runs. */
export function twinExit(twin: Pick<TwinRecord, 'exitFile'>): string | undefined {
	return readFileSync(twin.exitFile, 'utf8') || undefined;
}

export const twinOutput = (twin: Pick<TwinRecord, 'outputFile'>) =>
	readFileSync(twin.outputFile, 'utf8');

/**
 * Stops the twin as Ctrl-C does (SIGINT to npm's group), then, bounded, kills what is left, as a
 * crash would take it: for a run whose last test did not stop it.
 */
export async function stopTwin(twin: TwinRecord): Promise<void> {
	// Read before the signal: once npm is gone, what it started hangs from no tree.
	const known = [...twin.started, ...descendantsOf(twin.pid)];
	if (twinExit(twin) === undefined) {
		try {
			process.kill(-twin.pid, 'SIGINT');
		} catch {
			// gone already
		}
		const deadline = Date.now() + 60_000;
		while (twinExit(twin) === undefined && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
	killAll(known);
}
