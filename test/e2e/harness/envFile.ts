import { readFileSync } from 'node:fs';

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
