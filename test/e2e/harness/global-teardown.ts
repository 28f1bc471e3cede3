import { rmSync } from 'node:fs';

import { stateFileFor } from './state';
import { stopTwin } from './twin';

export default async function globalTeardown(
	_globalConfig?: unknown,
	projectConfig?: { globals?: Record<string, unknown> },
): Promise<void> {
	if (projectConfig?.globals?.__N8N_E2E_MODE__ === 'queue') {
		rmSync(stateFileFor('queue'), { force: true });
		const queue = globalThis.__n8nE2eQueue;
		globalThis.__n8nE2eQueue = undefined;
		if (!queue) return;
		// The faults test ends by stopping it as Ctrl-C does: a run without that file stops it here.
		await stopTwin(queue.twin);
		rmSync(queue.twin.tmp, { recursive: true, force: true });
		return;
	}
	const started = globalThis.__n8nE2e;
	globalThis.__n8nE2e = undefined;
	rmSync(stateFileFor('regular'), { force: true });
	if (!started) return;
	await started.instance.stop();
	rmSync(started.userFolder, { recursive: true, force: true });
}
