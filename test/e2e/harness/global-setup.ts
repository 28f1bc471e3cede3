import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { defaultOwner, N8nClient } from './client';
import { assertPackageLoaded, killAllOnSignals, startN8n, type N8nInstance } from './n8n-process';
import { installPackage, packageName, packPackage } from './package';
import { ensureRuntime } from './paths';
import { stateFile, type SuiteState } from './state';

declare global {
	var __n8nE2e: { instance: N8nInstance; userFolder: string } | undefined;
}

const phase = async <T>(label: string, work: () => T | Promise<T>): Promise<T> => {
	const started = Date.now();
	const result = await work();
	process.stderr.write(`[e2e] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
	return result;
};

/** One n8n for the whole e2e project; `npm run test:e2e` has built the package before. */
export default async function globalSetup(): Promise<void> {
	process.stderr.write('\n');
	await phase('runtime (Node 24 + n8n)', () => ensureRuntime());
	const tarball = await phase('npm pack', () => packPackage());
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	killAllOnSignals(() => {
		rmSync(userFolder, { recursive: true, force: true });
		rmSync(stateFile, { force: true });
	});
	let instance: N8nInstance | undefined;
	try {
		await phase('install package into user folder', () => installPackage(userFolder, tarball));
		instance = await phase('n8n start', () => startN8n({ name: 'e2e', userFolder }));
		assertPackageLoaded(instance, packageName);
		const client = new N8nClient(instance.url);
		const apiKey = await phase('owner, login, API key', async () => {
			await client.signIn(defaultOwner);
			return await client.createApiKey();
		});
		const state: SuiteState = {
			n8nUrl: instance.url,
			apiKey,
			session: client.session,
			owner: defaultOwner,
			userFolder,
			logFile: instance.logFile,
			tarball,
		};
		mkdirSync(path.dirname(stateFile), { recursive: true });
		writeFileSync(stateFile, JSON.stringify(state, null, 2));
		globalThis.__n8nE2e = { instance, userFolder };
	} catch (error) {
		// jest skips global teardown when global setup throws.
		await instance?.stop();
		rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}
}
