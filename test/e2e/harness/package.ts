import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { artifactsDir, repoRoot } from './paths';

export const packageName = 'n8n-nodes-review-scraping';

export function buildPackage(): void {
	execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * `npm pack` of the built package; returns the tarball's path. `root` is another checkout of the
 * package (the bench's baseline build), the repository by default.
 */
export function packPackage(
	destination = path.join(artifactsDir, 'pack'),
	root = repoRoot,
): string {
	mkdirSync(destination, { recursive: true });
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
	return path.join(destination, path.basename(filename));
}

/**
 * Installs the tarball the way n8n 2.41's community-node installer does (CommunityPackagesService
 * .downloadPackage): unpack into `<userFolder>/.n8n/nodes/node_modules/<name>`, drop dev, peer and
 * optional dependencies from its package.json, `npm install` inside it without scripts, then record
 * the version in the nodes folder's package.json.
 */
export function installPackage(userFolder: string, tarball: string): void {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', packageName);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);

	const manifestPath = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
		readFileSync(manifestPath, 'utf8'),
	) as Record<string, unknown> & { version: string };
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	execFileSync(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: packageDir, stdio: ['ignore', 'ignore', 'inherit'] },
	);

	const nodesManifestPath = path.join(nodesDir, 'package.json');
	let nodesManifest = {
		name: 'installed-nodes',
		private: true,
		dependencies: {} as Record<string, string>,
	};
	try {
		nodesManifest = JSON.parse(readFileSync(nodesManifestPath, 'utf8'));
	} catch {
		// first package in this folder
	}
	nodesManifest.dependencies = { ...nodesManifest.dependencies, [packageName]: manifest.version };
	writeFileSync(nodesManifestPath, JSON.stringify(nodesManifest, null, 2));
}
