import { createHash } from 'node:crypto';

import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * n8n's Retry On Fail calls `execute()` again with the same input, in the same process and with the
 * same execute-data object, after any error (or, with Continue On Fail, an error item first). A
 * submission the service already accepted must not be sent again: that is a second, billed job.
 * So each try records, per item and request, what came back; the next try of the same node run
 * reuses it instead of sending.
 *
 * Keyed by n8n's execute-data object in a WeakMap: n8n creates one per node run and drops it when
 * the execution ends (a resumed execution gets a new one), so nothing outlives the execution and
 * another execution or a later run of the node in a loop starts empty. The node name is part of the
 * key because an AI agent's tool nodes run with the agent's execute data.
 */
const runs = new WeakMap<object, Map<string, Remembered>>();

/** What the memory keys a request by (a service request; host/ imports nothing of the package). */
interface RememberedRequest {
	api: string;
	method: string;
	path: string;
	qs?: unknown;
	body?: unknown;
}

/**
 * The identity of this node run: one execute-data object per node run, the same on every try (the
 * Retry On Fail loop in n8n-core's `WorkflowExecute.processRunExecutionData`; read in 2.41.1, the
 * same on 1.123.81). Undefined where n8n gives none.
 */
function nodeRunIdentity(context: IExecuteFunctions): object | undefined {
	const run = typeof context.getExecuteData === 'function' ? context.getExecuteData() : undefined;
	return run && typeof run === 'object' ? run : undefined;
}

/** The service accepted it (its answer), or may have (sent, answer lost: the error). */
export type Remembered = { accepted: true; answer: unknown } | { accepted: 'maybe'; error: Error };

export interface RetryMemory {
	/** What an earlier try got for this request at this position, if it must not be sent again. */
	recall(position: number, request: RememberedRequest): Remembered | undefined;
	/** The service accepted it: a retry returns the same answer. */
	rememberAccepted(position: number, request: RememberedRequest, answer: unknown): void;
	/** It may have been accepted (the answer was lost): a retry reports it, never sends it. */
	rememberMaybeAccepted(position: number, request: RememberedRequest, error: Error): void;
}

/** Reading is repeatable: a GET is sent again by a retry, which also gets fresher data. */
function isSubmission(request: RememberedRequest): boolean {
	return request.method !== 'GET';
}

function keyOf(nodeName: string, position: number, request: RememberedRequest): string {
	const content = createHash('sha256')
		.update(JSON.stringify([request.api, request.method, request.path, request.qs, request.body]))
		.digest('base64');
	return `${nodeName}\n${position}\n${content}`;
}

/** Once only: the next try throws the same error again. */
export function notSentAgain<E extends Error & { description?: string | null }>(error: E): E {
	const note =
		'Not sent again by Retry On Fail: the service may have accepted it in the earlier try.';
	if (!error.description?.includes(note)) {
		error.description = `${error.description ?? ''} ${note}`.trim();
	}
	return error;
}

/** This node run's memory; none (every try sends) where n8n gives no execute data. */
export function retryMemory(this: IExecuteFunctions): RetryMemory | undefined {
	const run = nodeRunIdentity(this);
	if (!run) return undefined;
	let outcomes = runs.get(run);
	if (!outcomes) {
		outcomes = new Map();
		runs.set(run, outcomes);
	}
	const memory = outcomes;
	const nodeName = this.getNode().name;
	return {
		recall: (position, request) =>
			isSubmission(request) ? memory.get(keyOf(nodeName, position, request)) : undefined,
		rememberAccepted: (position, request, answer) => {
			if (isSubmission(request)) {
				memory.set(keyOf(nodeName, position, request), { accepted: true, answer });
			}
		},
		rememberMaybeAccepted: (position, request, error) => {
			if (isSubmission(request)) {
				memory.set(keyOf(nodeName, position, request), { accepted: 'maybe', error });
			}
		},
	};
}
