import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	freePort,
	killAllOnSignals,
	logTail,
	spawnInGroup,
	stopGroup,
} from '../e2e/harness/n8n-process';
import { artifactsDir, cacheDir, ensureRuntime, repoRoot } from '../e2e/harness/paths';

/** A verdaccio on loopback holding only what the test publishes (no uplink: nothing is proxied). */
export interface Registry {
	url: string;
	/** Publishes a tarball or a package folder under `tag` (npm's default: latest). */
	publish(source: string, tag?: string): void;
	/** The registry's document for a package (`versions`, `dist-tags`). */
	packument(
		name: string,
	): Promise<{ versions: Record<string, unknown>; 'dist-tags': Record<string, string> }>;
	logFile: string;
	stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * verdaccio's own folder under .cache, installed from `scripts/verdaccio/` (package.json and lock)
 * on first use. It is not a dependency of the package: it needs an `overrides` entry (its
 * verdaccio-audit asks for node-fetch's `cjs` dist-tag, which this registry lacks), and n8n's lint
 * refuses that field in a community package's package.json.
 */
function verdaccioBin(): string {
	const folder = path.join(cacheDir, 'verdaccio');
	const bin = path.join(folder, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	if (existsSync(bin)) return bin;
	mkdirSync(folder, { recursive: true });
	for (const file of ['package.json', 'package-lock.json']) {
		copyFileSync(path.join(repoRoot, 'scripts', 'verdaccio', file), path.join(folder, file));
	}
	execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
		cwd: folder,
		stdio: ['ignore', 'inherit', 'inherit'],
		timeout: 300_000,
	});
	return bin;
}

export async function startRegistry(): Promise<Registry> {
	const { nodeBin } = ensureRuntime();
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-registry-'));
	killAllOnSignals(() => rmSync(folder, { recursive: true, force: true }));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const config = path.join(folder, 'config.yaml');
	writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(path.join(folder, 'storage'))}`,
			'auth:',
			'  htpasswd:',
			`    file: ${JSON.stringify(path.join(folder, 'htpasswd'))}`,
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    unpublish: $authenticated',
			'web:',
			'  enable: false',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	const logFile = path.join(artifactsDir, 'logs', 'verdaccio.log');
	const child = spawnInGroup(
		path.join(nodeBin, 'node'),
		[verdaccioBin(), '--config', config, '--listen', `127.0.0.1:${port}`],
		{ cwd: folder, logFile, env: { ...process.env, NODE_ENV: 'production' } },
	);
	const stop = async () => {
		await stopGroup(child, 'SIGTERM', 5000);
		rmSync(folder, { recursive: true, force: true });
	};

	try {
		const deadline = Date.now() + 30_000;
		for (;;) {
			if (child.exitCode !== null) throw new Error(`verdaccio exited (code ${child.exitCode})`);
			const res = await fetch(`${url}/-/ping`, { signal: AbortSignal.timeout(2000) }).catch(
				() => undefined,
			);
			if (res?.ok) break;
			if (Date.now() > deadline) throw new Error('verdaccio not ready after 30 s');
			await sleep(200);
		}
		// A test user: the registry takes publications from signed-in users only.
		const res = await fetch(`${url}/-/user/org.couchdb.user:e2e`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'e2e', password: 'e2e-publisher-1' }),
			signal: AbortSignal.timeout(10_000),
		});
		const { token } = (await res.json()) as { token?: string };
		if (!token) throw new Error(`verdaccio refused the test user (${res.status})`);
		const npmrc = path.join(folder, 'npmrc');
		writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);

		const publish = (source: string, tag?: string) => {
			execFileSync(
				'npm',
				['publish', source, `--registry=${url}/`, ...(tag ? [`--tag=${tag}`] : [])],
				{
					cwd: folder,
					env: {
						...process.env,
						PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ''}`,
						npm_config_userconfig: npmrc,
						npm_config_cache: path.join(folder, 'npm-cache'),
					},
					stdio: ['ignore', 'ignore', 'pipe'],
					timeout: 60_000,
				},
			);
		};
		const packument = async (name: string) => {
			const answer = await fetch(`${url}/${name}`, { signal: AbortSignal.timeout(10_000) });
			if (!answer.ok) throw new Error(`registry: GET /${name} → ${answer.status}`);
			return (await answer.json()) as Awaited<ReturnType<Registry['packument']>>;
		};
		return { url, publish, packument, logFile, stop };
	} catch (error) {
		await stop();
		throw new Error(`${(error as Error).message}\n--- ${logFile} ---\n${logTail(logFile)}`);
	}
}
