/**
 * The documented configuration for a burst on one machine (deploy/volume/n8n-volume.env, read
 * here as shipped): every delivery of a burst is answered within the sender's patience and
 * starts. An n8n of its own, started with that file, beside the suite's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	callbackTriggerNode,
	countStarted,
	reviewJobDelivery,
	sendBurst,
	warmUp,
} from './harness/burst';
import { defaultOwner, N8nClient } from './harness/client';
import { assertPackageLoaded, startN8n, type N8nInstance } from './harness/n8n-process';
import { installPackage, packageName } from './harness/package';
import { readState } from './harness/state';
import { volumeEnv } from './harness/volumeEnv';
import { activateChain, productionUrl } from './harness/workflows';

const COUNT = Number(process.env.BURST_E2E_COUNT) || 200;
/** The service's patience is not documented; a webhook sender's is seconds (REAL-SERVICE.md). */
const PATIENCE_MS = 10_000;

let n8n: N8nInstance;
let client: N8nClient;
let userFolder: string;

beforeAll(async () => {
	userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-volume-'));
	installPackage(userFolder, readState().tarball);
	n8n = await startN8n({ name: 'volume', userFolder, env: volumeEnv() });
	assertPackageLoaded(n8n, packageName);
	client = new N8nClient(n8n.url);
	await client.signIn(defaultOwner);
	await client.createApiKey('burst volume e2e');
}, 180_000);

afterAll(async () => {
	await n8n?.stop();
	if (userFolder) rmSync(userFolder, { recursive: true, force: true });
});

test(`with deploy/volume/n8n-volume.env, ${COUNT} deliveries sent at once are all answered within ${PATIENCE_MS / 1000} s and all start`, async () => {
	const trigger = callbackTriggerNode(packageName);
	const id = await activateChain(client, 'burst e2e: volume settings', [trigger]);
	const url = productionUrl(n8n.url, trigger, 'callback');
	const before = await warmUp(client, id, url);
	const since = Date.now();
	const bodies = Array.from({ length: COUNT }, reviewJobDelivery);
	const outcome = await sendBurst(url, bodies, PATIENCE_MS);
	const { started } = await countStarted(client, id, since, before + COUNT, 10_000);
	process.stdout.write(
		`[burst volume] ${outcome.answeredInTime}/${COUNT} answered, the last after ` +
			`${((outcome.lastAnswerMs ?? 0) / 1000).toFixed(1)} s; ${started - before} started\n`,
	);
	expect(outcome).toMatchObject({ answeredInTime: COUNT, gaveUp: 0, refused: 0, failed: 0 });
	expect(started - before).toBe(COUNT);

	// The service's retry of the whole wave, all at once: every delivery taken side by side was
	// remembered, so each is answered as a repeat and none starts the workflow again.
	const texts: string[] = [];
	const again = await sendBurst(url, bodies, PATIENCE_MS, (text) => texts.push(text));
	expect(again.answeredInTime).toBe(COUNT);
	expect(texts.filter((text) => JSON.parse(text).duplicate === true)).toHaveLength(COUNT);
	const after = await countStarted(client, id, Date.now(), started + 1, 5_000);
	expect(after.started).toBe(started);
	await client.deactivate(id);
}, 600_000);
