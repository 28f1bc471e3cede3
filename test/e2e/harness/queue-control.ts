import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { QueueCluster, QueueProcess } from './queue';

export interface ClusterAddresses {
	frontUrl: string;
	postgres: { port: number; user: string; database: string };
	redisPort: number;
}

export interface ControlServer {
	url: string;
	close(): Promise<void>;
}

/**
 * The cluster belongs to global setup (which also stops it), while test files run in other module
 * registries or processes: they kill and restart workers through this loopback endpoint.
 *   GET  /processes                 → QueueProcess[]
 *   GET  /addresses                 → ClusterAddresses: the front, PostgreSQL and Redis
 *   POST /workers/<index>/kill      → SIGKILL to the worker's process group; answers once it is gone
 *   POST /workers/<index>/start     → a fresh worker in its place; answers once it is ready
 *   POST /webhooks/<index>/start    → webhook process <index> (0 is WEBHOOK_URL's), once ready
 *   POST /webhooks/<index>/stop     → stops it (SIGTERM); answers once it is gone
 *   POST /webhooks/<index>/kill     → SIGKILL to its process group; answers once it is gone
 *   POST /restart/<name>?graceMs=N  → stops an n8n process as docker compose does and starts it
 *                                     again (QueueCluster.restart); answers once it is ready
 *   POST /redis/restart?downMs=N    → Redis stopped, down N ms, started again
 *   POST /postgres/restart?downMs=N → PostgreSQL restarted as deploy/restart-postgres.sh does
 *                                     (QueueCluster.restartPostgres); answers once n8n is ready
 * `npm start -- --scale --control` serves the same for its stack (the faults test's way in).
 */
export async function startControlServer(cluster: QueueCluster): Promise<ControlServer> {
	const server = createServer((req, res) => {
		const reply = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		const work = async () => {
			if (req.method === 'GET' && req.url === '/processes') return reply(200, cluster.processes());
			if (req.method === 'GET' && req.url === '/addresses') {
				const { port, user, database } = cluster.postgres;
				const addresses: ClusterAddresses = {
					frontUrl: cluster.front.url,
					postgres: { port, user, database },
					redisPort: cluster.redis.port,
				};
				return reply(200, addresses);
			}
			const url = new URL(req.url ?? '/', 'http://control');
			const number = (name: string) => Number(url.searchParams.get(name) ?? NaN);
			const done = (started: number) =>
				reply(200, { ms: Date.now() - started, processes: cluster.processes() });
			const webhook = /^\/webhooks\/(\d+)\/(start|stop|kill)$/.exec(url.pathname);
			if (req.method === 'POST' && webhook) {
				const started = Date.now();
				const index = Number(webhook[1]);
				if (webhook[2] === 'start') await cluster.startWebhook(index);
				else if (webhook[2] === 'kill') await cluster.killWebhook(index);
				else await cluster.stopWebhook(index);
				return done(started);
			}
			const restart = /^\/restart\/(\w+)$/.exec(url.pathname);
			if (req.method === 'POST' && restart && number('graceMs') >= 0) {
				const started = Date.now();
				await cluster.restart(restart[1], number('graceMs'));
				return done(started);
			}
			if (req.method === 'POST' && url.pathname === '/redis/restart' && number('downMs') >= 0) {
				const started = Date.now();
				await cluster.redis.restart(number('downMs'));
				return done(started);
			}
			if (req.method === 'POST' && url.pathname === '/postgres/restart' && number('downMs') >= 0) {
				const started = Date.now();
				await cluster.restartPostgres(number('downMs'));
				return done(started);
			}
			const match = /^\/workers\/(\d+)\/(kill|start)$/.exec(url.pathname);
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
			signal: AbortSignal.timeout(600_000),
		});
		const body = (await res.json()) as T & { message?: string };
		if (!res.ok)
			throw new Error(`queue control ${method} ${path} → ${res.status}: ${body.message}`);
		return body;
	}

	processes(): Promise<QueueProcess[]> {
		return this.call('GET', '/processes');
	}

	addresses(): Promise<ClusterAddresses> {
		return this.call('GET', '/addresses');
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

	killWebhook(index: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/webhooks/${index}/kill`);
	}

	restart(name: string, graceMs: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/restart/${name}?graceMs=${graceMs}`);
	}

	restartRedis(downMs: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/redis/restart?downMs=${downMs}`);
	}

	restartPostgres(downMs: number): Promise<{ ms: number; processes: QueueProcess[] }> {
		return this.call('POST', `/postgres/restart?downMs=${downMs}`);
	}
}
