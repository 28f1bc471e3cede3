import { readFileSync } from 'node:fs';
import path from 'node:path';

// A dev dependency's dependency (n8n-core, @n8n/node-cli): the compose file is YAML with anchors.
import { parse } from 'yaml';

import { readEnvFile } from '../../e2e/harness/envFile';
import { repoRoot } from '../../e2e/harness/paths';
import { HAPROXY_TEMPLATE, haproxyConfig } from '../../e2e/harness/proxy';
import { WORKER_CONCURRENCY, WORKER_COUNT } from '../../e2e/harness/queue';
import {
	STACK_ADDRESS_KEYS,
	STACK_COMPOSE_FILE,
	STACK_ENV_FILE,
	STACK_WEBHOOK_PROCESSES,
	STACK_WORKERS,
	stackEnv,
} from '../../e2e/harness/stack';
import { trackedFiles } from '../nodeClasses';

interface ComposeService {
	image?: string;
	pull_policy?: string;
	build?: { dockerfile: string };
	stop_grace_period?: string;
	command?: string;
	env_file?: string;
	environment?: Record<string, string>;
	volumes?: string[];
	ports?: string[];
	deploy?: { replicas?: number };
	depends_on?: unknown;
}

const { services } = parse(readFileSync(STACK_COMPOSE_FILE, 'utf8'), { merge: true }) as {
	services: Record<string, ComposeService>;
};
const cfg = readFileSync(HAPROXY_TEMPLATE, 'utf8');
const shippedEnv = readEnvFile(STACK_ENV_FILE);
const fromDeploy = (file: string) => path.join(path.dirname(STACK_COMPOSE_FILE), file);
const n8nImage = services.n8n.image;
const n8nServices = Object.entries(services).filter(([, service]) => service.image === n8nImage);
const webhookServices = Array.from(
	{ length: STACK_WEBHOOK_PROCESSES },
	(_, i) => `n8n-webhook-${i + 1}`,
);
const workerServices = Array.from({ length: STACK_WORKERS }, (_, i) => `n8n-worker-${i + 1}`);
const runnerServices = workerServices.map((name) => name.replace('worker', 'runner'));

/** `server <name> <host>:<port>` lines of a backend of the front. */
const servers = (config: string, backend: string) => {
	const section = new RegExp(`^backend ${backend}\\n([\\s\\S]*?)(?=^\\S|$(?![\\s\\S]))`, 'm');
	return [...(section.exec(config)?.[1] ?? '').matchAll(/^\s*server (\S+) (\S+)/gm)].map(
		([, name, address]) => ({ name, address }),
	);
};

describe('deploy/compose.yaml runs the stack that `npm start -- --scale` and the queue e2e run', () => {
	it('has the same processes, with only the front reachable from outside', () => {
		expect(Object.keys(services).sort()).toEqual(
			[
				'postgres',
				'redis',
				'n8n',
				...webhookServices,
				...workerServices,
				...runnerServices,
				'haproxy',
			].sort(),
		);
		expect(Object.fromEntries(n8nServices.map(([name, s]) => [name, s.command]))).toEqual({
			n8n: 'start',
			...Object.fromEntries(webhookServices.map((name) => [name, 'webhook'])),
			...Object.fromEntries(
				workerServices.map((name) => [name, `worker --concurrency=${WORKER_CONCURRENCY}`]),
			),
		});
		expect(STACK_WORKERS).toBe(WORKER_COUNT);
		// One build of the package's image, by main's service; the others run it, never pulled.
		expect(services.n8n.build?.dockerfile).toBe('deploy/Dockerfile');
		expect(
			Object.entries(services)
				.filter(([, service]) => service.build)
				.map(([name]) => name),
		).toEqual(['n8n']);
		expect(n8nServices.map(([, service]) => service.pull_policy)).toEqual(
			n8nServices.map(() => 'never'),
		);
		const published = Object.entries(services).filter(([, service]) => service.ports);
		expect(published.map(([name]) => name)).toEqual(['haproxy']);
	});

	it('gives every n8n process deploy/n8n.env, and in compose.yaml only required secrets, the public URL and the cookie setting', () => {
		const required = /^\$\{[A-Z0-9_]+:\?[^}]+\}$/;
		for (const [name, { env_file, environment = {} }] of n8nServices) {
			expect([name, fromDeploy(String(env_file)), Object.keys(environment).sort()]).toEqual([
				name,
				STACK_ENV_FILE,
				[
					'DB_POSTGRESDB_PASSWORD',
					'N8N_EDITOR_BASE_URL',
					'N8N_ENCRYPTION_KEY',
					'N8N_RUNNERS_AUTH_TOKEN',
					'N8N_SECURE_COOKIE',
					'N8N_WEBHOOK_URL',
				],
			]);
			// n8n's own default (https-only sign-in) unless deploy/.env turns it off.
			expect(environment.N8N_SECURE_COOKIE).toBe('${N8N_SECURE_COOKIE:-true}');
			// Compose refuses to start without them, and no value is committed.
			const secrets = [
				'N8N_ENCRYPTION_KEY',
				'DB_POSTGRESDB_PASSWORD',
				'N8N_WEBHOOK_URL',
				'N8N_RUNNERS_AUTH_TOKEN',
			];
			expect(secrets.filter((key) => !required.test(environment[key]))).toEqual([]);
			expect(Object.keys(environment).filter((key) => key in shippedEnv)).toEqual([]);
		}
	});

	it('has deploy/n8n.env run queue mode on PostgreSQL behind one proxy, pointing at the compose services', () => {
		expect(shippedEnv).toEqual(
			expect.objectContaining({
				DB_TYPE: 'postgresdb',
				EXECUTIONS_MODE: 'queue',
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				N8N_PROXY_HOPS: '1',
				N8N_REINSTALL_MISSING_PACKAGES: 'true',
				N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
				DB_POSTGRESDB_HOST: 'postgres',
				DB_POSTGRESDB_USER: services.postgres.environment?.POSTGRES_USER,
				DB_POSTGRESDB_DATABASE: services.postgres.environment?.POSTGRES_DB,
				QUEUE_BULL_REDIS_HOST: 'redis',
			}),
		);
		// No expression engine n8n calls insecure, no secret.
		expect(Object.keys(shippedEnv)).toEqual(
			expect.not.arrayContaining(['N8N_EXPRESSION_ENGINE', 'N8N_ENCRYPTION_KEY']),
		);
		// The plain-process twin changes the addresses and nothing else.
		const here = Object.fromEntries(STACK_ADDRESS_KEYS.map((key) => [key, `here-${key}`]));
		const env = stackEnv(here as Parameters<typeof stackEnv>[0]);
		const changed = Object.keys(env).filter((key) => env[key] !== shippedEnv[key]);
		expect(changed.sort()).toEqual([...STACK_ADDRESS_KEYS].sort());
	});

	it('lists in deploy/.env.example every value compose.yaml reads from deploy/.env', () => {
		const compose = readFileSync(STACK_COMPOSE_FILE, 'utf8');
		const read = new Set([...compose.matchAll(/\$\{([A-Z0-9_]+)/g)].map(([, name]) => name));
		const example = readEnvFile(fromDeploy('.env.example'));
		expect([...read].filter((name) => !(name in example))).toEqual([]);
		expect(read.has('N8N_RUNNERS_AUTH_TOKEN')).toBe(true);
	});

	it("gives each worker a task runner of n8n's version, on the worker's broker with the shared token", () => {
		const pinned = readFileSync(path.join(repoRoot, 'scripts', 'n8n-version'), 'utf8').trim();
		expect(shippedEnv).toEqual(
			expect.objectContaining({
				N8N_RUNNERS_MODE: 'external',
				N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '0.0.0.0',
			}),
		);
		const token = services.n8n.environment?.N8N_RUNNERS_AUTH_TOKEN;
		runnerServices.forEach((name, i) => {
			expect([name, services[name]]).toEqual([
				name,
				expect.objectContaining({
					image: `n8nio/runners:${pinned}`,
					environment: {
						N8N_RUNNERS_AUTH_TOKEN: token,
						N8N_RUNNERS_TASK_BROKER_URI: `http://${workerServices[i]}:5679`,
					},
					depends_on: [workerServices[i]],
				}),
			]);
		});
	});

	it("runs PostgreSQL 17 or newer (n8n 2.41 warns on older ones), the twin's major version", () => {
		const composeMajor = Number(/^postgres:(\d+)-alpine$/.exec(services.postgres.image ?? '')?.[1]);
		const runtime = readFileSync(path.join(repoRoot, 'scripts', 'postgres-runtime.sh'), 'utf8');
		const twinMajor = Number(/^VERSION=(\d+)\.\d+\.\d+/m.exec(runtime)?.[1]);
		expect(composeMajor).toBeGreaterThanOrEqual(17);
		expect(twinMajor).toBe(composeMajor);
	});

	it("gives every n8n process more time to stop than n8n's own 30 s shutdown, as deploy/update.sh does", () => {
		const update = readFileSync(fromDeploy('update.sh'), 'utf8');
		const grace = Number(/^STOP_GRACE_SECONDS=(\d+)$/m.exec(update)?.[1]);
		expect(grace).toBeGreaterThan(30);
		for (const [name, service] of n8nServices) {
			expect([name, service.stop_grace_period]).toEqual([name, `${grace}s`]);
		}
	});

	it("deploy/restart-postgres.sh waits for every n8n process and closes the front's own frontend and webhook servers", () => {
		const script = readFileSync(fromDeploy('restart-postgres.sh'), 'utf8');
		const list = (name: string) =>
			new RegExp(`^${name}=\\((.*)\\)$`, 'm').exec(script)?.[1].split(' ');
		expect(list('N8N_SERVICES')?.sort()).toEqual(
			['n8n', ...webhookServices, ...workerServices].sort(),
		);
		expect(list('WEBHOOK_SERVERS')).toEqual(servers(cfg, 'n8n_webhooks').map((s) => s.name));
		const frontend = /^frontend (\S+)$/m.exec(cfg)?.[1];
		expect(script).toContain(`front 'disable frontend ${frontend}'`);
		expect(script).toContain(`front 'enable frontend ${frontend}'`);
	});

	it('mounts the one shipped haproxy.cfg, whose servers are the compose services', () => {
		const [source, target] =
			services.haproxy.volumes?.find((v) => v.endsWith(':ro'))?.split(':') ?? [];
		expect([fromDeploy(source), target]).toEqual([
			HAPROXY_TEMPLATE,
			'/usr/local/etc/haproxy/haproxy.cfg',
		]);
		expect(servers(cfg, 'n8n_webhooks')).toEqual(
			webhookServices.map((name) => ({ name, address: `${name}:5678` })),
		);
		expect(servers(cfg, 'n8n_main')).toEqual([{ name: 'n8n-main', address: 'n8n:5678' }]);
		const bind = /^\s*bind :(\d+)$/m.exec(cfg)?.[1];
		expect(services.haproxy.ports).toEqual([`${bind}:${bind}`]);
	});

	it('routes production webhooks and resume URLs to the webhook processes and the rest to main', () => {
		expect(/^\s*acl production path_beg (.+)$/m.exec(cfg)?.[1].split(' ')).toEqual([
			'/webhook/',
			'/webhook-waiting/',
			'/form/',
			'/form-waiting/',
			'/mcp/',
		]);
		expect(cfg).toMatch(
			/^\s*use_backend n8n_webhooks if production\n\s*default_backend n8n_main$/m,
		);
	});

	it("the twin's front: this run's bind and servers in the shipped configuration, nothing else changed", () => {
		const local = haproxyConfig(
			18080,
			['http://127.0.0.1:5001', 'http://127.0.0.1:5002'],
			undefined,
			'http://127.0.0.1:5000',
			'/run/front/admin.sock',
		);
		expect(local).toMatch(/^\tbind 127\.0\.0\.1:18080$/m);
		// The update's runtime API on a socket file of the run's, in place of the container's port.
		expect(cfg).toMatch(/^\tstats socket ipv4@127\.0\.0\.1:9999 level admin$/m);
		expect(local).toMatch(/^\tstats socket \/run\/front\/admin\.sock level admin$/m);
		expect(servers(local, 'n8n_webhooks')).toEqual([
			{ name: 'n8n-webhook-1', address: '127.0.0.1:5001' },
			{ name: 'n8n-webhook-2', address: '127.0.0.1:5002' },
		]);
		expect(local.match(/^\s*server n8n-webhook-\d \S+ maxconn 2 check$/gm)).toHaveLength(2);
		expect(servers(local, 'n8n_main')).toEqual([{ name: 'n8n-main', address: '127.0.0.1:5000' }]);
		const rest = (config: string) => config.replace(/^\s*(bind|server|stats socket) .*\n/gm, '');
		expect(rest(local)).toBe(rest(cfg));
	});
});

it('has no file under deploy/ switch n8n to its legacy expression engine, which n8n calls insecure', () => {
	const legacy = trackedFiles('deploy').filter((file) =>
		/N8N_EXPRESSION_ENGINE\s*[=:]\s*['"]?legacy/.test(readFileSync(file, 'utf8')),
	);
	expect(legacy).toEqual([]);
});

describe('deploy/Dockerfile', () => {
	const dockerfile = readFileSync(path.join(repoRoot, 'deploy', 'Dockerfile'), 'utf8');

	it('installs the packed package, as the community-node installer does, into the official image the tests run', () => {
		const pinned = readFileSync(path.join(repoRoot, 'scripts', 'n8n-version'), 'utf8').trim();
		for (const line of [
			new RegExp(`^ARG N8N_VERSION=${pinned.replace(/\./g, '\\.')}$`, 'm'),
			/^FROM n8nio\/n8n:\$\{N8N_VERSION\}$/m,
			/^USER node$/m,
			/^COPY --chown=node:node n8n-nodes-review-scraping-\*\.tgz deploy\/install-package\.sh package\/$/m,
			/sh "\$PWD\/package\/install-package\.sh" "\$1" "\$HOME\/\.n8n\/nodes"/,
		])
			expect(dockerfile).toMatch(line);
	});

	it('has in its build context every file it copies, and nothing else', () => {
		const ignore = readFileSync(path.join(repoRoot, 'deploy', 'Dockerfile.dockerignore'), 'utf8');
		const kept = ignore
			.split('\n')
			.filter((line) => line.startsWith('!'))
			.map((line) => line.slice(1));
		const copied = [...dockerfile.matchAll(/^COPY (?:--\S+ )*(.+) \S+$/gm)].flatMap(([, sources]) =>
			sources.split(' '),
		);
		expect(ignore).toMatch(/^\*$/m);
		expect(kept.sort()).toEqual(copied.sort());
	});
});
