import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const SCRIPT = join(root, 'scripts', 'lock-check.mjs');

const read = (file: string) => readFileSync(join(root, file), 'utf8');

const check = (folder: string) =>
	spawnSync(process.execPath, [SCRIPT, folder], { encoding: 'utf8', timeout: 60_000 });

/** A project whose lock holds `lib`, which asks for `peer` as an optional peer, and `peer` itself. */
function projectWith(peerLocked: string | null, peerRange = '>=2.0.0 <3'): string {
	const folder = mkdtempSync(join(tmpdir(), 'lock-check-'));
	const rootDependencies: Record<string, string> = { lib: '1.0.0' };
	const packages: Record<string, object> = {
		'': { name: 'project', dependencies: rootDependencies },
		'node_modules/lib': {
			version: '1.0.0',
			peerDependencies: { peer: peerRange },
			peerDependenciesMeta: { peer: { optional: true } },
		},
	};
	if (peerLocked !== null) {
		rootDependencies.peer = peerLocked;
		packages['node_modules/peer'] = { version: peerLocked };
	}
	writeFileSync(
		join(folder, 'package.json'),
		JSON.stringify({ name: 'project', dependencies: rootDependencies }),
	);
	writeFileSync(
		join(folder, 'package-lock.json'),
		JSON.stringify({ name: 'project', lockfileVersion: 3, requires: true, packages }),
	);
	return folder;
}

describe('package-lock.json holds: every dependency range is met by a locked version', () => {
	it("holds for this repository's lock and the installer test's registry lock", () => {
		for (const folder of [root, join(root, 'scripts', 'verdaccio')]) {
			const run = check(folder);
			expect(run.stdout).toContain('every range is met by a locked version');
			expect(run.status).toBe(0);
		}
	});

	it('holds a lock for each n8n that CI installs (the pinned one, the compatibility ones): that n8n', () => {
		const compat = /^COMPAT_N8N_VERSIONS=\(([^)]*)\)$/m.exec(read('.ci/run'))?.[1].split(' ') ?? [];
		expect(compat.length).toBeGreaterThan(0);
		for (const version of [read('scripts/n8n-version').trim(), ...compat]) {
			const lock = JSON.parse(read(`scripts/n8n-locks/n8n-${version}.package-lock.json`)) as {
				packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
			};
			expect(lock.packages[''].dependencies).toEqual({ n8n: version });
			expect(lock.packages['node_modules/n8n'].version).toBe(version);
		}
	});

	it.each([
		['an optional peer locked at a version outside its range', '1.4.0', 1],
		['an optional peer locked inside its range', '2.1.0', 0],
		['an optional peer that nothing installs', null, 0],
	])('%s', (_case, peerLocked, status) => {
		const folder = projectWith(peerLocked);
		try {
			const run = check(folder);
			expect(run.status).toBe(status);
			if (status === 1) {
				expect(run.stdout).toContain(
					'node_modules/lib wants peer >=2.0.0 <3 (peerOptional), the lock holds 1.4.0',
				);
			}
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});
