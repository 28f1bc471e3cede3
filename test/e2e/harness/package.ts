import { execFileSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';

import { artifactsDir, repoRoot } from './paths';

export const packageName = 'n8n-nodes-review-scraping';

export function buildPackage(): void {
	execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
}

const filesUnder = (folder: string): string[] =>
	existsSync(folder)
		? readdirSync(folder, { recursive: true, encoding: 'utf8' })
				.map((entry) => path.join(folder, entry))
				.filter((file) => statSync(file).isFile())
		: [];

/**
 * Whether dist/ is what `npm run build` would write now: one compiled file per source and no
 * other, a copy of each icon and codex file, and every source older than the oldest compiled file.
 */
export function isBuildCurrent(root = repoRoot): boolean {
	const dist = path.join(root, 'dist');
	const relative = (folder: string) => (file: string) => path.relative(folder, file);
	const compiled = filesUnder(dist).filter((file) => file.endsWith('.js'));
	if (compiled.length === 0) return false;
	const sources = ['nodes', 'credentials']
		.flatMap((folder) => filesUnder(path.join(root, folder)))
		.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
	const expected = sources.map((file) => relative(root)(file).replace(/\.ts$/, '.js')).sort();
	if (JSON.stringify(compiled.map(relative(dist)).sort()) !== JSON.stringify(expected)) {
		return false;
	}
	const copies = [
		...filesUnder(path.join(root, 'icons')).map((file) => ({
			file,
			copy: path.join(dist, 'icons', path.basename(file)),
		})),
		...filesUnder(path.join(root, 'nodes'))
			.filter((file) => file.endsWith('.node.json'))
			.map((file) => ({ file, copy: path.join(dist, relative(root)(file)) })),
	];
	if (
		copies.some(
			({ file, copy }) => !existsSync(copy) || statSync(copy).size !== statSync(file).size,
		)
	) {
		return false;
	}
	const builtAt = Math.min(...compiled.map((file) => statSync(file).mtimeMs));
	const inputs = [
		...sources,
		...copies.map(({ file }) => file),
		...['package.json', 'tsconfig.json', 'tsconfig.build.json', 'gulpfile.js'].map((file) =>
			path.join(root, file),
		),
	];
	return inputs.every((file) => statSync(file).mtimeMs < builtAt);
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
