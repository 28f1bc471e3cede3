import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { freePort, spawnInGroup, stopGroup } from './n8n-process';
import { artifactsDir, repoRoot } from './paths';

/**
 * The front users are given (docs/production.md): deploy/compose.yaml runs it as it is, the twin
 * (`npm start -- --scale`), the tests and the bench run it through haproxyConfig below.
 */
export const HAPROXY_TEMPLATE = path.join(repoRoot, 'deploy', 'haproxy.cfg');

export interface DeliveryProxy {
	url: string;
	port: number;
	/** A command of HAProxy's runtime API (its `stats socket`), and its answer. */
	admin(command: string): Promise<string>;
	stop(): Promise<void>;
}

const WEBHOOK_SERVER = /^(\s*)server n8n-webhook-\d+ \S+(.*)$/;
const MAIN_SERVER = /^(\s*)server n8n-main \S+(.*)$/;
const BIND = /^(\s*)bind \S+(.*)$/;
const ADMIN_SOCKET = /^(\s*)stats socket \S+(.*)$/;

/**
 * The shipped HAProxy configuration with this run's addresses: `bind` on a free port of
 * 127.0.0.1, one `server n8n-webhook-N` line per webhook address (with the shipped line's
 * settings) and main's address on the `server n8n-main` line. Everything else is read as shipped,
 * so what the tests measure is what the page tells users to run.
 */
export function haproxyConfig(
	listenPort: number,
	upstreams: string[],
	maxconn?: number,
	main: string = upstreams[0],
	adminSocket?: string,
): string {
	const lines = readFileSync(HAPROXY_TEMPLATE, 'utf8').split('\n');
	const webhookAt = lines.findIndex((line) => WEBHOOK_SERVER.test(line));
	const mainAt = lines.findIndex((line) => MAIN_SERVER.test(line));
	const bindAt = lines.findIndex((line) => BIND.test(line));
	if (webhookAt < 0 || mainAt < 0 || bindAt < 0) {
		throw new Error(
			`${HAPROXY_TEMPLATE}: expected a "bind" line, "server n8n-webhook-1" and "server n8n-main" lines`,
		);
	}
	const address = (url: string) => `${new URL(url).hostname}:${new URL(url).port}`;
	const [, indent, rest] = WEBHOOK_SERVER.exec(lines[webhookAt])!;
	const settings =
		maxconn === undefined ? rest : rest.replace(/ maxconn \d+/, ` maxconn ${maxconn}`);
	const servers = upstreams.map(
		(upstream, index) => `${indent}server n8n-webhook-${index + 1} ${address(upstream)}${settings}`,
	);
	return lines
		.flatMap((line, index) => {
			if (index === webhookAt) return servers;
			if (WEBHOOK_SERVER.test(line)) return [];
			if (index === mainAt)
				return [line.replace(MAIN_SERVER, `$1server n8n-main ${address(main)}$2`)];
			if (index === bindAt) return [line.replace(BIND, `$1bind 127.0.0.1:${listenPort}$2`)];
			// A socket file of this run's in place of the container's port, so fronts do not collide.
			if (ADMIN_SOCKET.test(line)) {
				return adminSocket ? [line.replace(ADMIN_SOCKET, `$1stats socket ${adminSocket}$2`)] : [];
			}
			return [line];
		})
		.join('\n');
}

/**
 * HAProxy refuses to start when the open-file limit is below what its `maxconn` needs (two files a
 * connection): on such a machine the run takes the connections the limit allows (`-n`).
 */
function connectionLimitFor(config: string): string[] {
	const maxconn = Number(/^\s*maxconn (\d+)/m.exec(readFileSync(config, 'utf8'))?.[1]);
	const files = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
	if (!Number.isFinite(files) || !Number.isFinite(maxconn) || files >= 2 * maxconn + 100) return [];
	return ['-n', String(Math.max(256, Math.floor((files - 100) / 2)))];
}

/**
 * HAProxy (Debian's) with the shipped configuration: production webhooks and resume URLs to
 * `upstreams` (the webhook processes), everything else to `main` (by default the first upstream:
 * in regular mode one n8n serves both).
 */
export async function startDeliveryProxy(
	upstreams: string[],
	label = 'proxy',
	/** In place of the shipped file's requests per n8n process, for a diagnosis. */
	maxconn?: number,
	options: { main?: string; port?: number } = {},
): Promise<DeliveryProxy> {
	const port = options.port ?? (await freePort());
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-proxy-'));
	const config = path.join(folder, 'haproxy.cfg');
	const adminSocket = path.join(folder, 'admin.sock');
	writeFileSync(config, haproxyConfig(port, upstreams, maxconn, options.main, adminSocket));
	const haproxy = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
	execFileSync(haproxy, ['-c', '-q', '-f', config]);
	const child = spawnInGroup(haproxy, ['-db', ...connectionLimitFor(config), '-f', config], {
		logFile: path.join(artifactsDir, 'logs', `haproxy-${label}.log`),
	});
	const url = `http://127.0.0.1:${port}`;
	const deadline = Date.now() + 10_000;
	for (;;) {
		try {
			await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
			break;
		} catch (error) {
			if (Date.now() > deadline) throw new Error(`HAProxy did not listen on ${url}: ${error}`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
	return {
		url,
		port,
		admin: (command) =>
			new Promise<string>((resolve, reject) => {
				let answer = '';
				const socket = net.connect(adminSocket, () => socket.end(`${command}\n`));
				socket.setEncoding('utf8');
				socket.on('data', (chunk: string) => (answer += chunk));
				socket.on('end', () => resolve(answer));
				socket.on('error', reject);
				socket.setTimeout(5_000, () =>
					socket.destroy(new Error(`HAProxy: no answer to "${command}"`)),
				);
			}),
		async stop() {
			await stopGroup(child);
			rmSync(folder, { recursive: true, force: true });
		},
	};
}
