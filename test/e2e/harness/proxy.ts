import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort, spawnInGroup, stopGroup } from './n8n-process';
import { artifactsDir, repoRoot } from './paths';

/** The load balancer configuration users are given (docs/running-at-scale.md). */
export const HAPROXY_TEMPLATE = path.join(repoRoot, 'deploy', 'volume', 'haproxy.cfg');

export interface DeliveryProxy {
	url: string;
	stop(): Promise<void>;
}

/**
 * The shipped HAProxy configuration with this run's addresses: `bind` on a free port of
 * 127.0.0.1 and one `server` line per n8n webhook address. Everything else is read as shipped,
 * so what the tests measure is what the page tells users to run.
 */
export function haproxyConfig(listenPort: number, upstreams: string[], maxconn?: number): string {
	let template = readFileSync(HAPROXY_TEMPLATE, 'utf8');
	if (maxconn !== undefined)
		template = template.replace(/ maxconn \d+ check$/m, ` maxconn ${maxconn} check`);
	const serverLine = /^(\s*)server n8n-webhook-1 \S+(.*)$/m;
	const match = serverLine.exec(template);
	if (!match || !/^\s*bind \S+/m.test(template)) {
		throw new Error(
			`${HAPROXY_TEMPLATE}: expected a "bind" line and a "server n8n-webhook-1" line`,
		);
	}
	const servers = upstreams
		.map((upstream, index) => {
			const { hostname, port } = new URL(upstream);
			return `${match[1]}server n8n-webhook-${index + 1} ${hostname}:${port}${match[2]}`;
		})
		.join('\n');
	return template
		.replace(/^(\s*)bind \S+/m, `$1bind 127.0.0.1:${listenPort}`)
		.replace(/^\s*server n8n-webhook-\d+ .*$\n?/gm, '')
		.replace(/^(\s*)# servers$/m, `$&\n${servers}`);
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

/** HAProxy (Debian's) in front of `upstreams`, as docs/running-at-scale.md sets it up. */
export async function startDeliveryProxy(
	upstreams: string[],
	label = 'proxy',
	/** In place of the shipped file's requests per n8n process, for a diagnosis. */
	maxconn?: number,
): Promise<DeliveryProxy> {
	const port = await freePort();
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-proxy-'));
	const config = path.join(folder, 'haproxy.cfg');
	writeFileSync(config, haproxyConfig(port, upstreams, maxconn));
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
		async stop() {
			await stopGroup(child);
			rmSync(folder, { recursive: true, force: true });
		},
	};
}
