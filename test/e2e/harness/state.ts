import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8nClient, type Owner } from './client';
import { artifactsDir } from './paths';
import type { QueueProcess } from './queue';
import type { TwinRecord } from './twin';

/** What global setup hands to the test files (they run in other module registries). */
export interface SuiteState {
	mode: 'regular' | 'queue';
	/** Editor, REST and public API. */
	n8nUrl: string;
	/** Where production webhooks and resume URLs are served: n8nUrl, or the twin's front. */
	webhookUrl: string;
	apiKey: string;
	session: { browserId: string; cookie: string };
	owner: Owner;
	logFile: string;
	/** The package as the regular suite installs it (empty in queue mode: the twin packs its own). */
	tarball: string;
	queue?: QueueState;
}

/**
 * What a queue-mode test can see of the stack's twin, and the control server that kills and
 * restarts its processes.
 */
export interface QueueState {
	controlUrl: string;
	startupMs: number;
	workerConcurrency: number;
	/** The shipped HAProxy front (deploy/haproxy.cfg): the editor, main's routes and the webhooks. */
	frontUrl: string;
	/** The cluster's Redis (127.0.0.1), where n8n's Bull keeps its queue. */
	redisPort: number;
	/** The cluster's PostgreSQL (127.0.0.1): its port, user and database. */
	postgres: { port: number; user: string; database: string };
	/** The processes once the twin was ready (restarts log to new files: ask the control server). */
	processes: QueueProcess[];
	twin: TwinRecord;
}

export type SuiteMode = SuiteState['mode'];

declare global {
	/** Set by the jest project (`globals`): e2e-queue runs the same test files against queue mode. */
	var __N8N_E2E_MODE__: SuiteMode | undefined;
}

/** Each mode has its own file, so both projects can run in one jest invocation. */
export function stateFileFor(mode: SuiteMode): string {
	return path.join(artifactsDir, 'e2e', mode === 'queue' ? 'state-queue.json' : 'state.json');
}

export const stateFile = stateFileFor('regular');

export function currentMode(): SuiteMode {
	return globalThis.__N8N_E2E_MODE__ ?? 'regular';
}

export function readState(): SuiteState {
	const file = stateFileFor(currentMode());
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as SuiteState;
	} catch {
		const command = currentMode() === 'queue' ? 'test:e2e:queue' : 'test:e2e';
		throw new Error(
			`no running n8n (${file} missing): run the suite with "npm run ${command}", whose global setup starts it`,
		);
	}
}

/** A client already logged in (REST) and carrying the API key (public API). */
export function connect(): { client: N8nClient; state: SuiteState } {
	const state = readState();
	const client = new N8nClient(state.n8nUrl, state.webhookUrl);
	client.apiKey = state.apiKey;
	client.useSession(state.session);
	return { client, state };
}
