import { execFileSync, spawnSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const SECTION = '## Install';
/** The repository's part of the block: the README's install step, then a build and the tarball. */
const REPOSITORY_LINE = 'npm install && npm run build && npm pack';

/** The commands of the first bash block under README's Install, comments dropped. */
function installBlock(): string[] {
	const readme = readFileSync(join(root, 'README.md'), 'utf8');
	const start = readme.indexOf(`\n${SECTION}\n`);
	if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
	const block = /^```bash\n([\s\S]*?)^```/m.exec(readme.slice(start));
	if (!block) throw new Error(`README.md's "${SECTION}" section has no bash block`);
	return block[1]
		.split('\n')
		.map((line) => line.replace(/\s+#.*$/, '').trim())
		.filter(Boolean);
}

describe("README's Install, run as written against a fresh home folder", () => {
	let work: string;
	let home: string;
	let packed: string;
	beforeAll(() => {
		if (!existsSync(join(root, 'dist'))) throw new Error('Run `npm run build` before this suite');
		work = mkdtempSync(join(tmpdir(), 'readme-install-'));
		home = join(work, 'home');
		mkdirSync(home);
		// The install and build are the README's try step, run by CI on a fresh clone; dist is built
		// for this project. npm pack runs here into the work folder, not into the repository.
		[{ filename: packed }] = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
				cwd: root,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore'],
			}),
		) as Array<{ filename: string }>;
	});
	afterAll(() => work && rmSync(work, { recursive: true, force: true }));

	it('installs the packed package into ~/.n8n/nodes/node_modules, where n8n looks', () => {
		const [repository, ...nodesFolder] = installBlock();
		expect(repository).toBe(REPOSITORY_LINE);
		expect(existsSync(join(work, packed))).toBe(true);

		// A package.json above the nodes folder: without one of its own there, npm would install
		// into this parent folder, and n8n would not find the package.
		writeFileSync(join(work, 'package.json'), '{"private": true}\n');
		const script = nodesFolder.join('\n').replaceAll('/path/to/', `${work}/`);
		expect(script).toContain(`${work}/n8n-nodes-review-scraping-*.tgz`);
		const run = runAsUser(['bash', '-euo', 'pipefail', '-c', script], work, home);
		expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
		expectInstalledIn(home);
		expect(existsSync(join(work, 'node_modules'))).toBe(false);
	});

	it("runs deploy/Dockerfile's install step as plain processes: the image's home is the working folder", () => {
		const dockerfile = readFileSync(join(root, 'deploy', 'Dockerfile'), 'utf8');
		const copyTo =
			/^COPY --chown=node:node n8n-nodes-review-scraping-\*\.tgz deploy\/install-package\.sh (\S+)$/m.exec(
				dockerfile,
			);
		const runLines = /^RUN ((?:.*\\\n)*.*)$/m.exec(dockerfile);
		if (!copyTo || !runLines)
			throw new Error('deploy/Dockerfile has no COPY of the tarball or no RUN');
		const imageHome = join(work, 'image-home');
		mkdirSync(join(imageHome, copyTo[1]), { recursive: true });
		copyFileSync(join(work, packed), join(imageHome, copyTo[1], packed));
		copyFileSync(
			join(root, 'deploy', 'install-package.sh'),
			join(imageHome, copyTo[1], 'install-package.sh'),
		);
		const script = runLines[1].replace(/\\\n/g, '\n');
		// The image runs RUN with /bin/sh, as WORKDIR (the node user's home) and HOME.
		const run = runAsUser(['sh', '-c', script], imageHome, imageHome);
		expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
		expectInstalledIn(imageHome);
		expect(existsSync(join(imageHome, copyTo[1]))).toBe(false);
	});
});

/** A user's shell, not npm's: no npm_* variables of the test run (their prefix among them). */
function runAsUser([command, ...args]: string[], cwd: string, home: string) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
	);
	return spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: {
			...env,
			HOME: home,
			// The machine's cache, preferred to the registry: npm reads the manifest of the omitted
			// peer dependency (n8n-workflow), which the project's own install has cached; a fresh
			// cache met a slow registry beside CI's n8n install and went over the time limit.
			npm_config_cache: machineNpmCache,
			npm_config_prefer_offline: 'true',
			npm_config_audit: 'false',
			npm_config_fund: 'false',
			npm_config_update_notifier: 'false',
		},
		timeout: 120_000,
	});
}

const machineNpmCache = execFileSync('npm', ['config', 'get', 'cache'], {
	encoding: 'utf8',
}).trim();

/** The package where n8n looks, ~/.n8n/nodes/node_modules, alone. */
function expectInstalledIn(home: string) {
	const installed = join(home, '.n8n', 'nodes', 'node_modules', pkg.name);
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		expect(existsSync(join(installed, file))).toBe(true);
	}
	const nodesPackage = JSON.parse(
		readFileSync(join(home, '.n8n', 'nodes', 'package.json'), 'utf8'),
	);
	expect(Object.keys(nodesPackage.dependencies)).toEqual([pkg.name]);
	// Only the package: its peer (n8n-workflow) and dev dependencies are n8n's or nobody's.
	expect(existsSync(join(home, '.n8n', 'nodes', 'node_modules', 'n8n-workflow'))).toBe(false);
}
