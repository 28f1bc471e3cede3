import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
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
 * Installs the tarball the way n8n 2.41's community-node installer does, with the script the
 * production image runs (deploy/install-package.sh, deploy/Dockerfile): every n8n the tests start
 * gets the package as the shipped image has it.
 */
export function installPackage(userFolder: string, tarball: string): void {
	execFileSync(
		'sh',
		[INSTALL_SCRIPT, path.resolve(tarball), path.join(userFolder, '.n8n', 'nodes')],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
}

export const INSTALL_SCRIPT = path.join(repoRoot, 'deploy', 'install-package.sh');
