import { readFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from './paths';

/** The n8n settings docs/running-at-scale.md gives for a burst on one machine. */
export const VOLUME_ENV_FILE = path.join(repoRoot, 'deploy', 'volume', 'n8n-volume.env');

/** `NAME=value` lines of an env file, comments and blank lines skipped. */
export function readEnvFile(file: string): Record<string, string> {
	const settings: Record<string, string> = {};
	for (const [index, line] of readFileSync(file, 'utf8').split('\n').entries()) {
		const text = line.trim();
		if (text === '' || text.startsWith('#')) continue;
		const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(text);
		if (!match) throw new Error(`${file}:${index + 1}: expected NAME=value, got "${text}"`);
		settings[match[1]] = match[2];
	}
	return settings;
}

export const volumeEnv = (): Record<string, string> => readEnvFile(VOLUME_ENV_FILE);
