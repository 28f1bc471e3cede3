import { createHash, randomBytes } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { executionCustomData, type ExecutionCustomData } from '../host/internals';
import { RESUME_TOKEN_PARAMETER } from '../redact';
import { secretsMatch } from '../secretsMatch';

/**
 * What a waiting execution waits for, kept in its custom data under one key per node: the ID of
 * the submitted job or request, and, where n8n does not sign the resume URL (1.x: its resume URL
 * is `/webhook-waiting/<execution id>`, and execution IDs are sequential), the digest of a random
 * token that the node put in the callback address itself. A callback resumes the execution only if
 * it carries both. Only the digest is kept: custom data shows in the executions list.
 */
export interface AwaitedJob {
	/** Undefined until the service has acknowledged the submission. */
	id?: string;
	tokenDigest?: string;
}

/** n8n 2.x puts its own token in the resume URL under this name and checks it before any node. */
const N8N_RESUME_SIGNATURE = 'signature';

const PENDING = 'pending';
// Base64url has no colon: the token ends at the second one, and the ID may hold any character.
const TOKEN_PREFIX = 'token:';

// Execution custom data keys allow letters, digits and underscores only, up to 50 characters.
export const awaitedJobKey = (nodeId: string) =>
	`awaiting_${nodeId.replace(/[^A-Za-z0-9]/g, '_')}`.slice(0, 50);

export function encodeAwaitedJob({ id, tokenDigest }: AwaitedJob): string {
	const value = id ?? PENDING;
	return tokenDigest ? `${TOKEN_PREFIX}${tokenDigest}:${value}` : value;
}

export function decodeAwaitedJob(stored: string | undefined): AwaitedJob | undefined {
	if (stored === undefined || stored === '') return undefined;
	let tokenDigest: string | undefined;
	let value = stored;
	if (stored.startsWith(TOKEN_PREFIX)) {
		const end = stored.indexOf(':', TOKEN_PREFIX.length);
		if (end < 0) return undefined;
		tokenDigest = stored.slice(TOKEN_PREFIX.length, end);
		value = stored.slice(end + 1);
	}
	return { id: value === PENDING ? undefined : value, tokenDigest };
}

export function digestToken(token: string): string {
	return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** Whether `given` is the token whose digest was kept, compared in constant time. */
export function tokenMatches(given: unknown, tokenDigest: string): boolean {
	return typeof given === 'string' && given !== '' && secretsMatch(digestToken(given), tokenDigest);
}

/**
 * The callback address for a waiting node: n8n's resume URL with the node ID as the path suffix
 * (where the restart webhook is matched, before the query string). When n8n signed the URL, its
 * signature is the proof; otherwise the node adds a fresh token of its own, returned to be kept.
 */
export function resumeCallbackAddress(
	resumeUrl: string,
	nodeId: string,
): { url: string; token?: string } {
	const [address, query] = resumeUrl.split('?');
	const base = `${address.replace(/\/+$/, '')}/${nodeId}`;
	const signed = new URLSearchParams(query ?? '').has(N8N_RESUME_SIGNATURE);
	if (signed) return { url: `${base}?${query}` };
	const token = randomBytes(24).toString('base64url');
	const rest = query ? `${query}&` : '';
	return { url: `${base}?${rest}${RESUME_TOKEN_PARAMETER}=${token}`, token };
}

/**
 * Wait for Completion keeps the submitted ID in the execution's custom data; without it (a context
 * with no execution behind it) the node cannot wait, so it is refused before anything is sent.
 */
export function requireExecutionCustomData(
	this: IExecuteFunctions,
	itemIndex: number,
): ExecutionCustomData {
	const store = executionCustomData(this, itemIndex);
	if (store) return store;
	throw new NodeOperationError(
		this.getNode(),
		"Wait for Completion needs the execution's custom data, which this run does not have",
		{
			itemIndex,
			description:
				'Nothing was sent. Turn Wait for Completion off and receive the results with a Scraping Callback Trigger.',
		},
	);
}
