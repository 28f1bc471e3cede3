import { randomUUID } from 'node:crypto';

import { n8nMajor } from './compat';
import { recordN8nFault } from './n8nFaults';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const defaultOwner: Owner = {
	email: 'owner@example.com',
	password: 'E2e-Passw0rd!',
	firstName: 'Test',
	lastName: 'Owner',
};

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	continueOnFail?: boolean;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}

export interface WorkflowDefinition {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	pinData?: Record<string, Array<{ json: Record<string, unknown> }>>;
}

export interface Execution {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	workflowId: string;
	startedAt: string;
	stoppedAt: string | null;
	/** The execution this one retried (n8n's public API). */
	retryOf?: string | null;
	data?: {
		resultData: {
			runData: Record<string, Array<NodeRun>>;
			error?: { message: string };
			lastNodeExecuted?: string;
		};
	};
}

export interface NodeRun {
	executionStatus?: string;
	/** Milliseconds the node ran, as n8n records it. */
	executionTime: number;
	error?: { message: string; description?: string };
	data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
}

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		message: string,
	) {
		super(message);
	}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * How long a request is asked again while n8n cannot take it. n8n pings its database every 2 s
 * and, when a ping is not answered within 5 s, refuses every request with 503 "Database is not
 * ready!" until the next one is (DbConnection.ping, and the middleware in AbstractServer): seen
 * while it saved a 100 MiB execution. The refusal comes before any handler, so asking again is
 * safe whatever the method.
 */
const N8N_UNAVAILABLE_MS = 60_000;
/** How long a webhook call waits for n8n's answer (a Webhook node answering at the last node). */
const WEBHOOK_ANSWER_MS = 120_000;

/**
 * Whether an ended execution's stored data is its final data. n8n 1.x on SQLite writes the status
 * and the data in two statements, status first (ExecutionRepository.updateExistingExecution): read
 * in between, a resumed execution reads "success" with the data it was resumed with, its waiting
 * node's run taken off. The final data has a run of the last node, or the error that ended it.
 */
export function dataSaved(execution: Execution): boolean {
	if (!['success', 'error'].includes(execution.status) || !execution.data) return true;
	const { runData, lastNodeExecuted, error } = execution.data.resultData;
	return (
		error !== undefined || (!!lastNodeExecuted && (runData[lastNodeExecuted]?.length ?? 0) > 0)
	);
}

/** Talks to one n8n instance: its internal REST API (as the editor) and its public API. */
export class N8nClient {
	browserId: string = randomUUID();
	private cookie = '';
	apiKey = '';

	/** `webhookBaseUrl`: where production webhooks are served (queue mode: the webhook process). */
	constructor(
		readonly baseUrl: string,
		readonly webhookBaseUrl: string = baseUrl,
	) {}

	/** n8n rate-limits logins, so test files reuse the session global setup opened. */
	get session(): { browserId: string; cookie: string } {
		return { browserId: this.browserId, cookie: this.cookie };
	}

	useSession(session: { browserId: string; cookie: string }): void {
		this.browserId = session.browserId;
		this.cookie = session.cookie;
	}

	private async request(
		method: string,
		path: string,
		body: unknown,
		headers: Record<string, string>,
	): Promise<Response> {
		const deadline = Date.now() + N8N_UNAVAILABLE_MS;
		const askAgain = async (fault: string) => {
			recordN8nFault(
				fault,
				`${method} ${path.split('?')[0]} at ${new Date().toISOString()}, asked again`,
			);
			await sleep(1_000);
		};
		let res: Response;
		for (;;) {
			try {
				res = await fetch(`${this.baseUrl}${path}`, {
					method,
					headers: {
						...(body === undefined ? {} : { 'content-type': 'application/json' }),
						...headers,
					},
					body: body === undefined ? undefined : JSON.stringify(body),
					signal: AbortSignal.timeout(60_000),
				});
			} catch (error) {
				// n8n closed the connection under the request: 1.x in queue mode failed a run so, its
				// main process busy with a 100 MiB execution (which request, undici did not say). A
				// read is asked again.
				const cause = (error as { cause?: { code?: string } }).cause;
				if (method !== 'GET' || cause?.code !== 'UND_ERR_SOCKET' || Date.now() > deadline)
					throw error;
				await askAgain('n8n: connection closed under a request');
				continue;
			}
			if (res.status !== 503 || Date.now() > deadline) break;
			const text = await res.clone().text();
			// The stack's front found no n8n ready (its readiness checks failed: a starved or
			// restarting process): the request reached no n8n.
			const noServer = text.includes('No server is available to handle this request');
			if (!text.includes('Database is not ready') && !noServer) break;
			await res.arrayBuffer();
			await askAgain(
				noServer
					? "the front: no n8n ready (HAProxy's 503)"
					: 'n8n: 503 "Database is not ready!" (a missed database ping)',
			);
		}
		if (!res.ok) {
			const text = await res.text();
			let parsed: unknown = text;
			try {
				parsed = JSON.parse(text);
			} catch {
				// keep the text
			}
			throw new HttpError(
				res.status,
				parsed,
				`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`,
			);
		}
		return res;
	}

	private sessionHeaders(): Record<string, string> {
		return { 'browser-id': this.browserId, ...(this.cookie ? { cookie: this.cookie } : {}) };
	}

	/** Internal REST API, as the editor calls it; the session cookie is bound to `browser-id`. */
	async rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await this.request(method, `/rest${path}`, body, this.sessionHeaders());
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const json = (await res.json()) as { data: T };
		return json.data;
	}

	/** Public API (`/api/v1`), authenticated by the API key. */
	async api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await this.request(method, `/api/v1${path}`, body, {
			'x-n8n-api-key': this.apiKey,
		});
		const text = await res.text();
		return (text ? JSON.parse(text) : undefined) as T;
	}

	/** Sets up the owner on a new instance, or just logs in when one exists already. */
	async signIn(owner: Owner = defaultOwner): Promise<void> {
		const settings = await this.rest<{ userManagement: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/settings',
		);
		if (settings.userManagement.showSetupOnFirstLoad) {
			await this.rest('POST', '/owner/setup', owner);
		}
		await this.rest('POST', '/login', {
			emailOrLdapLoginId: owner.email,
			password: owner.password,
		});
	}

	async createApiKey(label = `e2e-${Date.now()}`): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		const key = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label,
			scopes,
			expiresAt: null,
		});
		this.apiKey = key.rawApiKey;
		return key.rawApiKey;
	}

	async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<{ id: string; name: string }> {
		const create = (body: Record<string, unknown>) =>
			this.api<{ id: string; name: string }>('POST', '/credentials', { name, type, data: body });
		let created: { id: string; name: string };
		try {
			created = await create(data);
		} catch (error) {
			// n8n 1.x's public API wants the domain allowance of generically authenticated credentials.
			if (!(error instanceof HttpError && /allowed(HttpRequest)?Domains/.test(error.message)))
				throw error;
			created = await create({ ...data, allowedHttpRequestDomains: 'all' });
		}
		return { id: created.id, name: created.name };
	}

	/** The editor's "Test" button on a credential form. */
	async testCredential(
		type: string,
		data: Record<string, unknown>,
	): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const name = `test ${type}`;
		try {
			return await this.rest('POST', '/credentials/test', {
				credentials: { id: '', name, type, data },
			});
		} catch (error) {
			// n8n 1.x tests only a saved credential (its editor saves the form first): 403 otherwise.
			if (!(error instanceof HttpError && error.status === 403)) throw error;
			const { id } = await this.createCredential(name, type, data);
			return await this.rest('POST', '/credentials/test', {
				credentials: { id, name, type, data },
			});
		}
	}

	async createWorkflow(workflow: WorkflowDefinition): Promise<{ id: string }> {
		return await this.api('POST', '/workflows', {
			settings: { executionOrder: 'v1' },
			...workflow,
		});
	}

	async getWorkflow(id: string): Promise<WorkflowDefinition & { id: string; active: boolean }> {
		return await this.api('GET', `/workflows/${id}`);
	}

	async activate(id: string): Promise<void> {
		await this.api('POST', `/workflows/${id}/activate`);
	}

	async deactivate(id: string): Promise<void> {
		await this.api('POST', `/workflows/${id}/deactivate`);
	}

	async deleteWorkflow(id: string): Promise<void> {
		await this.api('DELETE', `/workflows/${id}`);
	}

	async listExecutions(query: {
		workflowId?: string;
		status?: string;
		includeData?: boolean;
		limit?: number;
	}): Promise<Execution[]> {
		const params = new URLSearchParams();
		for (const [key, value] of Object.entries(query)) {
			if (value !== undefined) params.set(key, String(value));
		}
		const page = await this.api<{ data: Execution[] }>('GET', `/executions?${params}`);
		if (n8nMajor() >= 2 || (query.status !== undefined && query.status !== 'waiting')) {
			return page.data;
		}
		// n8n 1.x keeps a waiting execution among its active ones, and its public API leaves those
		// out of every list: the editor's own API lists them.
		const waiting = await this.waitingExecutions(query.workflowId);
		const listed = new Set(page.data.map((execution) => execution.id));
		return [...page.data, ...waiting.filter((execution) => !listed.has(execution.id))].sort(
			(a, b) => Number(b.id) - Number(a.id),
		);
	}

	private async waitingExecutions(workflowId: string | undefined): Promise<Execution[]> {
		if (!this.cookie) await this.signIn();
		const filter = JSON.stringify({ status: ['waiting'], ...(workflowId ? { workflowId } : {}) });
		const page = await this.rest<{ results: Array<{ id: string }> }>(
			'GET',
			`/executions?filter=${encodeURIComponent(filter)}&limit=50`,
		);
		return await Promise.all(page.results.map(async ({ id }) => await this.getExecution(id)));
	}

	async getExecution(id: string): Promise<Execution> {
		return await this.api('GET', `/executions/${id}?includeData=true`);
	}

	/** Waits for `count` executions of a workflow that are no longer running, newest first. */
	async waitForExecutions(workflowId: string, count = 1, timeoutMs = 30_000): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		const ended = (executions: Execution[]) =>
			executions.filter((e) => !['running', 'new', 'waiting'].includes(e.status));
		for (;;) {
			// Data only once enough have ended: n8n stores a started execution with its trigger's
			// output, so reading data at every poll read a 100 MiB delivery four times a second.
			let executions = await this.listExecutions({ workflowId, limit: 100 });
			let done = ended(executions);
			if (done.length >= count) {
				executions = await this.listExecutions({ workflowId, includeData: true, limit: 100 });
				done = ended(executions);
				if (done.length >= count && done.every(dataSaved)) return done;
			}
			if (Date.now() > deadline) {
				const unsaved = done.filter((e) => !dataSaved(e)).map((e) => e.id);
				throw new Error(
					`workflow ${workflowId}: ${done.length}/${count} finished executions after ${timeoutMs} ms ` +
						`(statuses: ${executions.map((e) => e.status).join(', ') || 'none'}` +
						`${unsaved.length ? `; ended without their final data: ${unsaved.join(', ')}` : ''})`,
				);
			}
			await sleep(250);
		}
	}

	/**
	 * POSTs to a production webhook. Right after activation n8n may still answer 404 "not
	 * registered" for a moment, so that answer is retried.
	 */
	async callWebhook(path: string, body: unknown, timeoutMs = 10_000): Promise<Response> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await fetch(`${this.webhookBaseUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(WEBHOOK_ANSWER_MS),
			}).catch((error: Error) => {
				if (error.name !== 'TimeoutError') throw error;
				throw new Error(`POST /webhook/${path}: no answer in ${WEBHOOK_ANSWER_MS / 1000} s`);
			});
			if (res.status !== 404 || Date.now() > deadline) return res;
			await res.arrayBuffer();
			await sleep(200);
		}
	}

	/** The catalogues the editor loads: every node type and credential type n8n has loaded. */
	async nodeTypes(): Promise<
		Array<{ name: string; displayName: string; version: number | number[] }>
	> {
		return await this.typesFile('/types/nodes.json');
	}

	async credentialTypes(): Promise<Array<{ name: string; displayName: string }>> {
		return await this.typesFile('/types/credentials.json');
	}

	/**
	 * n8n serves the catalogues as static files it rewrites after an install, update or
	 * uninstall; a read while it writes gets the file cut short (seen on n8n 1.123.81: "Unterminated
	 * string in JSON at position 4193870" right after an uninstall). Read until it is whole.
	 */
	private async typesFile<T>(path: string, timeoutMs = 15_000): Promise<T> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await this.request('GET', path, undefined, this.sessionHeaders());
			const text = await res.text();
			try {
				return JSON.parse(text) as T;
			} catch (error) {
				if (Date.now() > deadline) {
					throw new Error(`GET ${path}: not whole JSON after ${timeoutMs} ms: ${error}`);
				}
			}
			await sleep(100);
		}
	}
}
