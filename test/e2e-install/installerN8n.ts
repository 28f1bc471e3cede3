import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Database, startN8nOnDatabase } from '../e2e/harness/database';
import { EditorClient } from '../e2e/harness/editorClient';
import { killAllOnSignals, type N8nInstance } from '../e2e/harness/n8n-process';
import type { Registry } from './registry';

export interface InstallerN8n {
	n8n: N8nInstance;
	client: EditorClient;
	userFolder: string;
	nodesFolder: string;
	stop(): Promise<void>;
}

/** A fresh n8n whose Community Nodes page installs from `registry`, on the database given. */
export async function startInstallerN8n(
	registry: Registry,
	database: Database,
): Promise<InstallerN8n> {
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-install-'));
	killAllOnSignals(() => rmSync(userFolder, { recursive: true, force: true }));
	const nodesFolder = path.join(userFolder, '.n8n', 'nodes');
	// `npm outdated` (the list's update check) runs without n8n's --registry flag, and n8n 1.x
	// gives npm no environment but PATH: the nodes folder's own .npmrc is what both majors read.
	mkdirSync(nodesFolder, { recursive: true });
	writeFileSync(path.join(nodesFolder, '.npmrc'), `registry=${registry.url}/\n`);
	let n8n: N8nInstance | undefined;
	try {
		n8n = await startN8nOnDatabase(
			{
				name: `install-${database}`,
				userFolder,
				env: {
					N8N_LOG_FORMAT: 'json',
					N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
					// n8n's own end-to-end mode: its /rest/e2e routes switch licence features on, the
					// custom registry among them. Nothing else allows a registry other than npm's without
					// a licence.
					E2E_TESTS: 'true',
					npm_config_cache: path.join(userFolder, 'npm-cache'),
				},
			},
			database,
		);
		const res = await fetch(`${n8n.url}/rest/e2e/feature`, {
			method: 'PATCH',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ feature: 'feat:communityNodes:customRegistry', enabled: true }),
			signal: AbortSignal.timeout(10_000),
		});
		if (res.status !== 200) throw new Error(`PATCH /rest/e2e/feature → ${res.status}`);
		// The Community Nodes page's own routes throughout; n8n 1.x's end-to-end mode has no public
		// API.
		const client = new EditorClient(n8n.url);
		await client.signIn();
		const started = n8n;
		return {
			n8n,
			client,
			userFolder,
			nodesFolder,
			stop: async () => {
				await started.stop();
				rmSync(userFolder, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await n8n?.stop();
		rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}
}
