import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { INSTALL_SCRIPT, packageName } from '../e2e/harness/package';

/**
 * deploy/install-package.sh, which the production image and every n8n of the tests install the
 * package with, leaves what n8n 2.41's community-node installer leaves.
 */
const root = path.join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
let folder: string;
let tarball: string;

beforeAll(() => {
	if (!existsSync(path.join(root, 'dist')))
		throw new Error('Run `npm run build` before this suite');
	folder = mkdtempSync(path.join(os.tmpdir(), 'install-script-'));
	const out = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', folder],
		{ cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
	);
	tarball = path.join(folder, JSON.parse(out)[0].filename);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const install = (nodes: string) =>
	execFileSync('sh', [INSTALL_SCRIPT, tarball, nodes], { encoding: 'utf8', stdio: 'pipe' });

describe('deploy/install-package.sh', () => {
	it("installs into the nodes folder as n8n's installer does: no dev, peer or optional dependencies, no lock file, the version in the ledger", () => {
		const nodes = path.join(folder, 'fresh', '.n8n', 'nodes');
		install(nodes);
		const installed = path.join(nodes, 'node_modules', packageName);
		const installedManifest = JSON.parse(
			readFileSync(path.join(installed, 'package.json'), 'utf8'),
		);
		expect(installedManifest).not.toHaveProperty('devDependencies');
		expect(installedManifest).not.toHaveProperty('peerDependencies');
		expect(installedManifest).not.toHaveProperty('optionalDependencies');
		expect(installedManifest.n8n).toEqual(manifest.n8n);
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			expect(existsSync(path.join(installed, file))).toBe(true);
		}
		expect(existsSync(path.join(installed, 'package-lock.json'))).toBe(false);
		expect(existsSync(path.join(installed, 'node_modules', '.bin'))).toBe(false);
		expect(JSON.parse(readFileSync(path.join(nodes, 'package.json'), 'utf8'))).toEqual({
			name: 'installed-nodes',
			private: true,
			dependencies: { [packageName]: manifest.version },
		});
	});

	it("installs again over an earlier install, keeping the ledger's other packages", () => {
		const nodes = path.join(folder, 'again', '.n8n', 'nodes');
		const stale = path.join(nodes, 'node_modules', packageName, 'dist', 'stale.js');
		mkdirSync(path.dirname(stale), { recursive: true });
		writeFileSync(stale, '');
		writeFileSync(
			path.join(nodes, 'package.json'),
			JSON.stringify({
				name: 'installed-nodes',
				private: true,
				dependencies: { 'n8n-nodes-other': '1.2.3', [packageName]: '0.0.1' },
			}),
		);
		install(nodes);
		expect(existsSync(stale)).toBe(false);
		expect(JSON.parse(readFileSync(path.join(nodes, 'package.json'), 'utf8')).dependencies).toEqual(
			{ 'n8n-nodes-other': '1.2.3', [packageName]: manifest.version },
		);
	});

	it('refuses to run without a package and a nodes folder', () => {
		expect(() => execFileSync('sh', [INSTALL_SCRIPT, tarball], { stdio: 'pipe' })).toThrow(/usage/);
	});
});
