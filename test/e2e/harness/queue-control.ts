import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { QueueCluster, QueueProcess } from './queue';

export interface ControlServer {
	url: string;
	close(): Promise<void>;
}

/**
 * The cluster belongs to global setup (which also stops it), while test files run in other module
 * registries or processes: they kill and restart workers through this loopback endpoint.
 *   GET  /processes                 → QueueProcess[]
 *   POST /workers/<index>/kill      → SIGKILL to the worker's process group; answers once it is gone
 *   POST /workers/<index>/start     → a fresh worker in its place; answers once it is ready
 *   POST /webhooks/<index>/start    → webhook process <index> (0 is WEBHOOK_URL's), once ready
 *   POST /webhooks/<index>/stop     → stops it (SIGTERM); answers once it is gone
 */
export async function startControlServer(cluster: QueueCluster): Promise<ControlServer> {
	const server = createServer((req, res) => {
		const reply = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		const work = async () => {
			if (req.method === 'GET' && req.url === '/processes') return reply(200, cluster.processes());
			const webhook = /^\/webhooks\/(\d+)\/(start|stop)$/.exec(req.url ?? '');
			if (req.method === 'POST' && webhook) {
				const started = Date.now();
				const index = Number(webhook[1]);
				if (webhook[2] === 'start') await cluster.startWebhook(index);
				else await cluster.stopWebhook(index);
				return reply(200, { ms: Date.now() - started, processes: cluster.processes() });
			}
			const match = /^\/workers\/(\d+)\/(kill|start)$/.exec(req.url ?? '');
			if (req.method !== 'POST' || !match) return reply(404, { message: 'no such control' });
			const index = Number(match[1]);
			if (index >= cluster.workers.length) return reply(404, { message: `no worker ${index}` });
			const started = Date.now();
			if (match[2] === 'kill') await cluster.killWorker(index);
			else await cluster.startWorker(index);
			reply(200, { ms: Date.now() - started, processes: cluster.processes() });
		};
		work().catch((error: Error) => reply(409, { message: error.message }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** The test-side client of the control server. */
export class QueueControl {
	constructor(readonly url: string) {}

	private async call<T>(method: string, path: string): Promise<T> {
		const res = await fetch(`${this.url}${path}`, {
			method,
			signal: AbortSignal.timeout(180_000),
		});
		const body = (await res.json()) as T & { message?: string };
		if (!res.ok)
			throw new Error(`queue control ${method} ${path} → ${res.status}: ${body.message}`);
		return body;
	}

	processes(): Promise<QueueProcess[]> {
		return this.call('GET', '/processes');
	}

	killWorker(index: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/workers/${index}/kill`);
	}

	startWorker(index: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/workers/${index}/start`);
	}

	startWebhook(index: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/webhooks/${index}/start`);
	}

	stopWebhook(index: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/webhooks/${index}/stop`);
	}
}
