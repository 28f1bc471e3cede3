import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import type { INodeType } from 'n8n-workflow';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function filesUnder(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

beforeAll(() => {
	if (!existsSync(join(root, 'dist'))) throw new Error('Run `npm run build` before this suite');
});

describe('package.json as n8n reads it', () => {
	it('has the fields n8n and its verification expect', () => {
		expect(pkg.name).toMatch(/^n8n-nodes-/);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.license).toBe('MIT');
		expect(pkg.author.name).toBeTruthy();
		// n8n's community lint (valid-author) refuses an author without an email.
		expect(pkg.author.email).toMatch(/^[^@\s]+@[^@\s]+$/);
		// No invented address: the author and bug tracker are the repository's.
		expect(pkg.author.url).toMatch(/^https:\/\/github\.com\//);
		expect(pkg.bugs.url).toMatch(/^https:\/\/github\.com\/.*\/issues$/);
		// npm's install-script policy: without it `npm ci` runs the lint plugin's `only-allow pnpm`
		// preinstall, which fails under npm.
		expect(pkg.allowScripts).toEqual({ 'eslint-plugin-n8n-nodes-base': false });
		expect(pkg.homepage).toMatch(/^https:\/\//);
		expect(pkg.description.length).toBeGreaterThan(20);
		expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
		expect(pkg.files).toEqual(['dist']);
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
	});

	it('has no runtime dependencies and only n8n-workflow as a peer', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(Object.keys(pkg.peerDependencies)).toEqual(['n8n-workflow']);
	});

	it('lists every built node and credential, each exporting a class named like its file', () => {
		const built = filesUnder(join(root, 'dist'))
			.map((file) => relative(root, file))
			.filter((file) => /\.(node|credentials)\.js$/.test(file))
			.sort();
		expect([...pkg.n8n.nodes, ...pkg.n8n.credentials].sort()).toEqual(built);
		for (const file of built) {
			const className = file
				.split('/')
				.pop()!
				.replace(/\.(node|credentials)\.js$/, '');
			const exported = require(join(root, file))[className];
			expect(typeof exported).toBe('function');
		}
	});

	it('ships a codex file next to every node, with categories and a documentation link', () => {
		for (const node of pkg.n8n.nodes as string[]) {
			const codex = JSON.parse(readFileSync(join(root, node.replace(/\.js$/, '.json')), 'utf8'));
			const className = node
				.split('/')
				.pop()!
				.replace(/\.node\.js$/, '');
			const type = new (require(join(root, node))[className])() as INodeType;
			expect(codex.node).toBe(`${pkg.name}.${type.description.name}`);
			expect(codex.categories.length).toBeGreaterThan(0);
			expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
		}
	});
});

describe('what npm publishes', () => {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	)[0].files.map((file: { path: string }) => file.path) as string[];

	it('contains dist and the package documents, nothing else', () => {
		const outside = packed.filter(
			(path) =>
				!path.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(path),
		);
		expect(outside).toEqual([]);
		expect(packed).toContain('dist/nodes/ReviewScraper/ReviewScraper.node.js');
		expect(
			packed.some((path) => /simulator|test|bench|\.map$|\.ts$/.test(path.replace(/\.d\.ts$/, ''))),
		).toBe(false);
	});

	it('ships the light and dark icons the nodes and credentials point at', () => {
		const pointedAt = [...pkg.n8n.nodes, ...pkg.n8n.credentials].flatMap((file: string) => {
			const className = file
				.split('/')
				.pop()!
				.replace(/\.(node|credentials)\.js$/, '');
			const type = new (require(join(root, file))[className])();
			const { light, dark } = (type.description ?? type).icon as { light: string; dark: string };
			return [light, dark].map((icon) =>
				relative(root, join(root, dirname(file), icon.replace(/^file:/, ''))),
			);
		});
		expect(new Set(pointedAt).size).toBe(2 * 7 + 2 * 2 - 2);
		for (const icon of pointedAt) {
			expect(icon).toMatch(/^dist\/icons\/[a-zA-Z]+(\.dark)?\.svg$/);
			expect(packed).toContain(icon);
		}
	});
});

describe('shipped code', () => {
	const shipped = filesUnder(join(root, 'dist')).filter((file) => file.endsWith('.js'));

	it('imports only n8n-workflow, node:crypto and its own files', () => {
		for (const file of shipped) {
			const requires = [...readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map(
				(m) => m[1],
			);
			for (const name of requires) {
				expect([file, name]).toEqual([
					file,
					expect.stringMatching(/^(n8n-workflow|node:crypto|\.{1,2}\/.*)$/),
				]);
			}
		}
	});

	it('touches no environment variables, files, timers or process', () => {
		for (const file of shipped) {
			const code = readFileSync(file, 'utf8');
			expect([
				file,
				/process\.|require\("(node:)?(fs|child_process|os)"\)|setTimeout|setInterval/.test(code),
			]).toEqual([file, false]);
		}
	});

	it('has no lint disable comments in nodes/ or credentials/', () => {
		const sources = [...filesUnder(join(root, 'nodes')), ...filesUnder(join(root, 'credentials'))];
		const disabled = sources.filter((file) =>
			readFileSync(file, 'utf8').includes('eslint-disable'),
		);
		expect(disabled).toEqual([]);
	});
});
