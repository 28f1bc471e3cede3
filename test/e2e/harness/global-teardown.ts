import { rmSync } from 'node:fs';

import { stateFile } from './state';

export default async function globalTeardown(): Promise<void> {
	const started = globalThis.__n8nE2e;
	globalThis.__n8nE2e = undefined;
	rmSync(stateFile, { force: true });
	if (!started) return;
	await started.instance.stop();
	rmSync(started.userFolder, { recursive: true, force: true });
}
