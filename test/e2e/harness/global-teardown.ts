import { rmSync } from 'node:fs';

import { stateFileFor } from './state';

export default async function globalTeardown(): Promise<void> {
	const started = globalThis.__n8nE2e;
	globalThis.__n8nE2e = undefined;
	rmSync(stateFileFor('regular'), { force: true });
	rmSync(stateFileFor('queue'), { force: true });
	const queue = globalThis.__n8nE2eQueue;
	globalThis.__n8nE2eQueue = undefined;
	if (queue) {
		await queue.control.close();
		await queue.cluster.stop();
	}
	if (!started) return;
	await started.instance.stop();
	rmSync(started.userFolder, { recursive: true, force: true });
}
