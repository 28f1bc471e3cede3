import { createRequire } from 'node:module';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';

import { spawnInGroup, stopGroup } from './n8n-process';
import { artifactsDir, ensureRuntime } from './paths';

/** n8n's JavaScript task runner beside one worker, as compose.yaml's n8n-runner-<n> is. */
export interface TaskRunner {
	/** Runner processes started so far (a new one each time the one before exited). */
	readonly starts: number;
	/** The running runner process, if one runs now. */
	readonly pid: number | undefined;
	stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A runner's settings (beside PATH and HOME): its broker, and the grant its launcher got there with
 * the auth token (compose.yaml gives n8n's launcher the token; the runner it starts gets the grant).
 */
export function runnerSettings(broker: string, grantToken: string): Record<string, string> {
	return { N8N_RUNNERS_TASK_BROKER_URI: broker, N8N_RUNNERS_GRANT_TOKEN: grantToken };
}

/**
 * What n8n's runners image does as a plain process, for the twin (`npm start -- --scale`, the queue
 * suite): asks the worker's broker for a grant token with the shared auth token (POST
 * `/runners/auth`, n8n's TaskBrokerAuthController), then starts n8n's runner
 * (`@n8n/task-runner/start` of the same n8n, with the flags n8n's own launch uses) with that
 * grant. The runner exits when its broker goes (a worker restarted or killed); like the container
 * with `restart: unless-stopped`, a new one is started, once the broker answers again.
 */
export function launchTaskRunner(options: {
	name: string;
	brokerPort: number;
	authToken: string;
}): TaskRunner {
	const { nodeBin, n8nMain } = ensureRuntime();
	const script = createRequire(n8nMain).resolve('@n8n/task-runner/start');
	const broker = `http://127.0.0.1:${options.brokerPort}`;
	let stopping = false;
	let starts = 0;
	let child: ChildProcess | undefined;

	const grant = async (): Promise<string | undefined> => {
		while (!stopping) {
			try {
				const res = await fetch(`${broker}/runners/auth`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ token: options.authToken }),
					signal: AbortSignal.timeout(5000),
				});
				if (res.ok) return ((await res.json()) as { data: { token: string } }).data.token;
				await res.body?.cancel();
			} catch {
				// the broker is not listening (yet, or again)
			}
			await sleep(500);
		}
		return undefined;
	};

	const run = (async () => {
		while (!stopping) {
			const token = await grant();
			if (!token || stopping) return;
			const runner = spawnInGroup(
				path.join(nodeBin, 'node'),
				['--disallow-code-generation-from-strings', '--disable-proto=delete', script],
				{
					env: {
						PATH: process.env.PATH ?? '',
						HOME: process.env.HOME ?? '',
						...runnerSettings(broker, token),
					},
					logFile: path.join(
						artifactsDir,
						'logs',
						`runner-${options.name}${starts ? `-restart${starts}` : ''}.log`,
					),
				},
			);
			child = runner;
			starts++;
			await new Promise((resolve) => runner.once('exit', resolve));
			child = undefined;
			if (!stopping) await sleep(500);
		}
	})();

	return {
		get starts() {
			return starts;
		},
		get pid() {
			return child?.pid;
		},
		async stop() {
			stopping = true;
			if (child) await stopGroup(child);
			await run;
		},
	};
}
