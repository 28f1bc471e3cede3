import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const artifactsDir = path.join(repoRoot, 'test-artifacts');
export const cacheDir = path.join(repoRoot, '.cache');

export const pinnedN8nVersion = readFileSync(
	path.join(repoRoot, 'scripts', 'n8n-version'),
	'utf8',
).trim();

/** The n8n the suites run: the pinned one, or N8N_VERSION for a compatibility run. */
export const n8nVersion = process.env.N8N_VERSION?.trim() || pinnedN8nVersion;

export interface Runtime {
	/** Folder holding Node 24's `node` binary. */
	nodeBin: string;
	/** n8n's own entry script (run it with Node 24, not through its shebang). */
	n8nMain: string;
}

let runtime: Runtime | undefined;

/** Installs Node 24 and n8n on first use (minutes), then answers from the cache. */
export function ensureRuntime(): Runtime {
	if (runtime) return runtime;
	const script = path.join(repoRoot, 'scripts', 'n8n-runtime.sh');
	const run = (args: string[]) =>
		execFileSync('bash', [script, ...args], {
			cwd: repoRoot,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}).trim();
	const n8nBin = run([]);
	const nodeBin = run(['--node-bin']);
	runtime = {
		nodeBin,
		n8nMain: path.join(path.dirname(n8nBin), '..', 'n8n', 'bin', 'n8n'),
	};
	return runtime;
}
