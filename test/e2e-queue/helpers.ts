import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Execution, N8nClient } from '../e2e/harness/client';
import { artifactsDir } from '../e2e/harness/paths';
import { QueueControl } from '../e2e/harness/queue-control';
import { connect, type QueueState, type SuiteState } from '../e2e/harness/state';
import { useE2e, type E2eSuiteOptions } from '../e2e/harness/suite';

const logDir = path.join(artifactsDir, 'logs');

/** The suite's state, refusing to run these tests against anything but queue mode. */
export function connectQueue(): {
	client: N8nClient;
	state: SuiteState & { queue: QueueState };
	control: QueueControl;
} {
	const { client, state } = connect();
	return { client, ...queueOf(state) };
}

/** useE2e (a simulator, credentials, hooks) for the queue-only tests, with the cluster's controls. */
export function useQueueE2e(options: E2eSuiteOptions = {}) {
	const suite = useE2e(options);
	return { ...suite, ...queueOf(suite.state) };
}

function queueOf(state: SuiteState): {
	state: SuiteState & { queue: QueueState };
	control: QueueControl;
} {
	if (state.mode !== 'queue' || !state.queue) {
		throw new Error('these tests need queue mode: run them with "npm run test:e2e:queue"');
	}
	return {
		state: state as SuiteState & { queue: QueueState },
		control: new QueueControl(state.queue.controlUrl),
	};
}

const read = (file: string) => {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return '';
	}
};

/** The twin's log files of one kind of process, restarts included (a restart writes a new file). */
function logFiles(kind: 'main' | 'webhook' | 'worker'): string[] {
	const name = new RegExp(`^n8n-scale-${kind}\\d*(-restart\\d+)?\\.log$`);
	return readdirSync(logDir)
		.filter((file) => name.test(file))
		.sort()
		.map((file) => path.join(logDir, file));
}

/** Every worker log of the twin, restarted workers' included. */
export function workerLogs(): Array<{ name: string; text: string }> {
	return logFiles('worker').map((file) => ({
		name: path.basename(file).replace(/^n8n-scale-|\.log$/g, ''),
		text: read(file),
	}));
}

/** Names of the workers that logged starting `executionId` (once per run of it: a resume is a second run). */
export function workersThatRan(executionId: string): string[] {
	const marker = `Worker started execution ${executionId} (`;
	return workerLogs().flatMap(({ name, text }) =>
		text
			.split(marker)
			.slice(1)
			.map(() => name),
	);
}

/** How many times the processes writing `logs` say they put `executionId` on the queue. */
export function timesEnqueued(logs: string[], executionId: string): number {
	const marker = `Enqueued execution ${executionId} (`;
	return logs.reduce((times, log) => times + read(log).split(marker).length - 1, 0);
}

/** The logs of main, or of every webhook process (the front shares deliveries among them). */
export function processLogs(kind: 'main' | 'webhook'): string[] {
	return logFiles(kind);
}

/**
 * Every execution of a workflow, following the public API's cursor. n8n leaves running executions
 * out of the list unless asked for them by status, so those come from a second listing.
 */
export async function allExecutions(
	client: N8nClient,
	workflowId: string,
	options: { includeData?: boolean; maxPages?: number } = {},
): Promise<Execution[]> {
	const byId = new Map<string, Execution>();
	for (const status of [undefined, 'running', 'waiting']) {
		let cursor: string | undefined;
		for (let page = 0; page < (options.maxPages ?? 50); page++) {
			const params = new URLSearchParams({ workflowId, limit: '250' });
			if (status) params.set('status', status);
			if (options.includeData) params.set('includeData', 'true');
			if (cursor) params.set('cursor', cursor);
			const result = await client.api<{ data: Execution[]; nextCursor?: string | null }>(
				'GET',
				`/executions?${params}`,
			);
			for (const execution of result.data) byId.set(execution.id, execution);
			cursor = result.nextCursor ?? undefined;
			if (!cursor) break;
		}
	}
	return [...byId.values()];
}

/**
 * n8n's public API retry of each execution (POST /executions/{id}/retry, the stored workflow):
 * per execution, the retry's id, or why n8n refused it (an execution saved without its data).
 */
export async function retryEach(
	client: N8nClient,
	executions: Execution[],
): Promise<Map<string, { retryId: string } | { refused: string }>> {
	const outcomes = new Map<string, { retryId: string } | { refused: string }>();
	for (const execution of executions) {
		try {
			const retry = await client.api<{ id: string }>('POST', `/executions/${execution.id}/retry`, {
				loadWorkflow: false,
			});
			outcomes.set(execution.id, { retryId: retry.id });
		} catch (error) {
			outcomes.set(execution.id, { refused: String((error as Error).message).slice(0, 200) });
		}
	}
	return outcomes;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A callback the trigger recognises as a social scrape, with an id of its own. */
export const socialScrapeCallback = (requestId: string, n: number) => ({
	request_id: requestId,
	status: 'completed',
	request_metadata: { url: `https://social.example.com/p/${n}` },
	results: [{ post_id: n, text: `post ${n}` }],
});

/** One callback posted as the service posts it; its answer's status and text. */
export async function postCallback(
	url: string,
	body: unknown,
	timeoutMs: number,
): Promise<{ status: number; text: string }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(timeoutMs),
	});
	return { status: res.status, text: await res.text() };
}
