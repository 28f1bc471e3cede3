/**
 * `npm start`: builds the package (unless dist/ is current), starts the simulator and a real n8n
 * with the package installed as the community-node installer does, points credentials at the
 * simulator, imports examples/.
 * State (database, API key, encryption key) persists in .cache/n8n-home. Ctrl-C stops everything.
 * Environment: N8N_PORT (5678), SIM_PORT (4010).
 *
 * `npm start -- --scale`: the production stack of deploy/compose.yaml as plain processes
 * (docs/production.md): PostgreSQL 17 (scripts/postgres-runtime.sh), Redis from Debian's packages,
 * n8n's main process, two webhook processes and two workers, all on deploy/n8n.env, behind
 * deploy/haproxy.cfg on N8N_PORT.
 * Its database is thrown away when it stops; the simulator and the examples as above.
 * `--control` adds a loopback endpoint that kills and restarts the stack's processes (its URL is
 * printed; test/e2e/harness/queue-control.ts lists its routes): the faults test's way in.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

import { createSimulator, type Simulator } from '../simulator/server';
import { HttpError, N8nClient, type Owner } from '../test/e2e/harness/client';
import { isWebhookTriggered, loadExamples, prepareExample } from '../test/e2e/harness/examples';
import { builtCredentialTypes, simulatorCredentialData } from '../test/e2e/harness/fixtures';
import {
	assertPackageLoaded,
	releaseSignals,
	startN8n,
	type N8nInstance,
} from '../test/e2e/harness/n8n-process';
import {
	buildPackage,
	installPackage,
	isBuildCurrent,
	packageName,
	packPackage,
} from '../test/e2e/harness/package';
import {
	artifactsDir,
	cacheDir,
	ensureRuntime,
	n8nVersion,
	repoRoot,
} from '../test/e2e/harness/paths';
import { HAPROXY_TEMPLATE } from '../test/e2e/harness/proxy';
import { startQueueCluster, type QueueCluster } from '../test/e2e/harness/queue';
import { startControlServer, type ControlServer } from '../test/e2e/harness/queue-control';
import { STACK_ENV_FILE } from '../test/e2e/harness/stack';

const home = path.join(cacheDir, 'n8n-home');
const n8nPort = Number(process.env.N8N_PORT ?? 5678);
const simPort = Number(process.env.SIM_PORT ?? 4010);
const scale = process.argv.includes('--scale');
const control = process.argv.includes('--control');

const owner: Owner = {
	email: 'demo@example.com',
	password: 'Review-Scraper-1',
	firstName: 'Demo',
	lastName: 'User',
};

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const say = (message: string) => process.stdout.write(`[start ${elapsed()}] ${message}\n`);

function assertPortFree(port: number, variable: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', () =>
			reject(
				new Error(`port ${port} on 127.0.0.1 is in use: stop what uses it or set ${variable}`),
			),
		);
		server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
	});
}

/** A second `npm start`, or one right after `npm test`, skips the build it does not need. */
function buildUnlessCurrent(): void {
	if (isBuildCurrent()) {
		say('the package is built: dist/ is newer than every source it is built from');
		return;
	}
	say('building the package');
	buildPackage();
}

/** A value generated once and kept in the persistent user folder. */
function persisted(file: string, create: () => string): string {
	const full = path.join(home, file);
	if (existsSync(full)) return readFileSync(full, 'utf8').trim();
	const value = create();
	writeFileSync(full, `${value}\n`, { mode: 0o600 });
	return value;
}

/**
 * The demo's simulator, and Ctrl-C or SIGTERM stopping it with what else the demo runs. The
 * service's callback retries (2, 6 and 24 hours after a refusal) run on a clock where an hour is a
 * minute, so a demo callback refused by n8n comes back within minutes, not hours.
 */
async function startDemoSimulator(
	simPort: number,
	others: string,
	stopOthers: () => Promise<unknown> | undefined,
) {
	const simulator = createSimulator({ port: simPort, timeScale: 1 / 60 });
	await simulator.start();
	say(`simulator listening on 127.0.0.1:${simPort}`);
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`\nstopping ${others} and the simulator...\n`);
		await Promise.allSettled([stopOthers(), simulator.stop()]);
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));
	return { simulator, stop };
}

async function ensureApiKey(client: N8nClient): Promise<void> {
	const file = path.join(home, 'api-key');
	if (existsSync(file)) {
		client.apiKey = readFileSync(file, 'utf8').trim();
		try {
			await client.api('GET', '/workflows?limit=1');
			return;
		} catch (error) {
			if (!(error instanceof HttpError && error.status === 401)) throw error;
		}
	}
	writeFileSync(file, `${await client.createApiKey('npm start')}\n`, { mode: 0o600 });
}

async function upsertCredentials(client: N8nClient, simulator: Simulator) {
	const existing = (
		await client.api<{ data: Array<{ id: string; name: string; type: string }> }>(
			'GET',
			'/credentials?limit=250',
		)
	).data;
	const result: Record<string, { id: string; name: string }> = {};
	for (const credential of builtCredentialTypes()) {
		const name = `${credential.displayName} (simulator)`;
		const data = simulatorCredentialData(credential, simulator);
		const found = existing.find((c) => c.name === name && c.type === credential.name);
		if (found) {
			// The simulator's port may have changed since the last start.
			await client.api('PATCH', `/credentials/${found.id}`, { data });
			result[credential.name] = { id: found.id, name };
		} else {
			result[credential.name] = await client.createCredential(name, credential.name, data);
		}
	}
	return result;
}

async function importExamples(
	client: N8nClient,
	credentials: Record<string, { id: string; name: string }>,
	n8nUrl: string,
): Promise<string[]> {
	const lines: string[] = [];
	for (const { file, workflow } of loadExamples()) {
		const query = new URLSearchParams({ name: workflow.name });
		const { data } = await client.api<{ data: Array<{ id: string; active: boolean }> }>(
			'GET',
			`/workflows?${query}`,
		);
		// A workflow imported by an earlier start may have been edited since: leave it alone.
		let id = data[0]?.id;
		if (!id) {
			({ id } = await client.createWorkflow(prepareExample(workflow, { credentials, n8nUrl })));
			if (isWebhookTriggered(workflow)) await client.activate(id);
		}
		lines.push(`  ${workflow.name}\n    ${n8nUrl}/workflow/${id}  (examples/${file})`);
	}
	return lines;
}

/**
 * n8n's 16 MiB default refuses a review job of about 20,000 reviews, waited-for ones included. The
 * demo's one n8n only: `--scale` runs deploy/n8n.env as shipped, n8n's default included.
 */
const PAYLOAD_SIZE = { N8N_PAYLOAD_SIZE_MAX: '64' };

/** `--scale`: the stack of deploy/compose.yaml as plain processes, against the simulator. */
async function startScale() {
	await assertPortFree(n8nPort, 'N8N_PORT');
	await assertPortFree(simPort, 'SIM_PORT');
	say(`Node 24 and n8n ${n8nVersion} (first run installs them: about 5 minutes)`);
	ensureRuntime();
	buildUnlessCurrent();
	const tarball = packPackage(path.join(artifactsDir, 'pack', 'scale'));

	let cluster: QueueCluster | undefined;
	let controlServer: ControlServer | undefined;
	const { simulator, stop } = await startDemoSimulator(
		simPort,
		'the front, n8n, Redis, PostgreSQL',
		async () => {
			await controlServer?.close();
			await cluster?.stop();
		},
	);

	try {
		say(
			`starting PostgreSQL, Redis, n8n main, 2 webhook processes, 2 workers and the front on ${path.relative(repoRoot, STACK_ENV_FILE)} (about a minute)`,
		);
		cluster = await startQueueCluster({
			tarball,
			label: 'scale',
			stack: true,
			frontPort: n8nPort,
		});
		// The harness kills every process at once on a signal (for test runs): from here on, a
		// signal stops the stack in order instead, the front first and the database last.
		releaseSignals();
		process.on('SIGHUP', () => void stop(0));
		const front = cluster.front.url;
		// Everything through the front, as a user's browser and the service reach the stack.
		const client = new N8nClient(front);
		await client.signIn(owner);
		client.apiKey = await client.createApiKey('npm start -- --scale');
		const credentials = await upsertCredentials(client, simulator);
		const workflows = await importExamples(client, credentials, front);
		const line = (name: string, url: string, what: string) =>
			`  ${name.padEnd(12)}${url.padEnd(26)}${what}`;
		const processes = cluster.processes();
		if (control) controlServer = await startControlServer(cluster);
		process.stdout.write(
			[
				'',
				`n8n ${n8nVersion} in queue mode with ${packageName} is ready (${elapsed()})`,
				'',
				line(
					'Front',
					front,
					`${path.relative(repoRoot, HAPROXY_TEMPLATE)}: editor, webhooks, resume URLs (WEBHOOK_URL)`,
				),
				`  Login       ${owner.email}  /  ${owner.password}`,
				'',
				...processes.map((p) =>
					line(
						p.name,
						p.url,
						p.name === 'main'
							? 'editor, /rest, test webhooks'
							: p.name.startsWith('webhook')
								? 'production webhooks and resume URLs'
								: 'runs executions (health check)',
					),
				),
				...cluster.runners.map((_, i) =>
					line(
						`runner${i}`,
						`127.0.0.1:${cluster?.workers[i]?.brokerPort}`,
						`worker${i}'s task runner (Code nodes), on its broker`,
					),
				),
				line(
					'PostgreSQL',
					`127.0.0.1:${cluster.postgres.port}`,
					`version ${cluster.postgres.version}, thrown away when this stops`,
				),
				line('Redis', `127.0.0.1:${cluster.redis.port}`, 'the queue'),
				...(controlServer
					? [line('Control', controlServer.url, 'kills and restarts processes (--control)')]
					: []),
				'',
				`Credentials (pointing at the simulator on 127.0.0.1:${simPort}):`,
				...Object.values(credentials).map((c) => `  ${c.name}`),
				'',
				'Example workflows:',
				...workflows,
				'',
				`Logs: ${path.relative(repoRoot, path.dirname(cluster.main.logFile))}/n8n-scale-*.log, haproxy-scale-front.log. Ctrl-C stops everything.`,
				'',
			].join('\n'),
		);
	} catch (error) {
		process.stderr.write(`\n${(error as Error).stack ?? error}\n`);
		await stop(1);
	}
}

async function main() {
	if (control && !scale) {
		process.stderr.write(
			'npm start: --control serves the stack of --scale only (npm start -- --scale --control)\n',
		);
		process.exit(2);
	}
	if (scale) return await startScale();
	mkdirSync(home, { recursive: true });
	await assertPortFree(n8nPort, 'N8N_PORT');
	await assertPortFree(simPort, 'SIM_PORT');

	say(`Node 24 and n8n ${n8nVersion} (first run installs them: about 5 minutes)`);
	ensureRuntime();
	buildUnlessCurrent();
	say('packing it and installing it into .cache/n8n-home as the community-node installer does');
	installPackage(home, packPackage(path.join(artifactsDir, 'pack', 'start')));

	let n8n: N8nInstance | undefined;
	const { simulator, stop } = await startDemoSimulator(simPort, 'n8n', () => n8n?.stop());

	try {
		say('starting n8n');
		n8n = await startN8n({
			name: 'start',
			userFolder: home,
			port: n8nPort,
			encryptionKey: persisted('encryption-key', () => randomBytes(24).toString('hex')),
			env: PAYLOAD_SIZE,
		});
		assertPackageLoaded(n8n, packageName);
		const client = new N8nClient(n8n.url);
		await client.signIn(owner);
		await ensureApiKey(client);
		const credentials = await upsertCredentials(client, simulator);
		const workflows = await importExamples(client, credentials, n8n.url);

		const logFile = path.relative(repoRoot, n8n.logFile);
		process.stdout.write(
			[
				'',
				`n8n ${n8nVersion} with ${packageName} is ready (${elapsed()})`,
				'',
				`  Editor    ${n8n.url}`,
				`  Login     ${owner.email}  /  ${owner.password}`,
				'',
				`Credentials (pointing at the simulator on 127.0.0.1:${simPort}):`,
				...Object.values(credentials).map((c) => `  ${c.name}`),
				'',
				'Example workflows:',
				...workflows,
				'',
				`n8n log: ${logFile}. Ctrl-C stops n8n and the simulator.`,
				'',
			].join('\n'),
		);
	} catch (error) {
		process.stderr.write(`\n${(error as Error).stack ?? error}\n`);
		await stop(1);
	}
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? error}\n`);
	process.exit(1);
});
