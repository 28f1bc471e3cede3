import { spawnSync } from 'node:child_process';
import {
	chmodSync,
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

const root = join(__dirname, '..', '..', '..');
const LAUNCHER = 'scripts/node24.sh';
/** Scripts that need no Node 24: prettier, and the installer of Node 24 itself. */
const WITHOUT_LAUNCHER = ['format', 'n8n:bootstrap'];

describe(`${LAUNCHER}: npm scripts under Node 24 on a machine with an older Node`, () => {
	it('runs every npm script that runs the project, so npm start and npm test work on Node 20', () => {
		const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
		const direct = Object.entries<string>(scripts)
			.filter(([name]) => !WITHOUT_LAUNCHER.includes(name))
			.filter(([, command]) => !/^bash scripts\/node24\.sh '[^']+'$/.test(command))
			.map(([name, command]) => `${name}: ${command}`);
		expect(direct).toEqual([]);
		expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['start', 'test', 'build']));
	});

	let dir: string;
	beforeAll(() => {
		// The launcher beside a stand-in of n8n-runtime.sh that hands out a fake Node 24 and notes the
		// call, and a fake older Node: no download, and the PATH the command gets is visible.
		dir = mkdtempSync(join(tmpdir(), 'node24-launcher-'));
		mkdirSync(join(dir, 'scripts'));
		copyFileSync(join(root, LAUNCHER), join(dir, LAUNCHER));
		const fakeNode = (folder: string, version: string) => {
			mkdirSync(join(dir, folder));
			writeFileSync(join(dir, folder, 'node'), `#!/bin/sh\necho ${version}\n`);
			chmodSync(join(dir, folder, 'node'), 0o755);
		};
		fakeNode('node20', 'v20.20.2');
		fakeNode('node24', 'v24.21.0');
		writeFileSync(
			join(dir, 'scripts', 'n8n-runtime.sh'),
			`[ "$1" = --node-bin ] || exit 2\ntouch "${dir}/asked"\necho "${dir}/node24"\n`,
		);
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it.each([
		[
			'puts Node 24 first on PATH when the node on PATH is older',
			'node20',
			true,
			/node v20\.20\.2 is older than 24/,
		],
		['changes nothing when the node on PATH is Node 24 already', 'node24', false, /^$/],
	] as const)('%s', (_name, nodeFolder, asks, stderr) => {
		rmSync(join(dir, 'asked'), { force: true });
		const run = spawnSync(
			'bash',
			[join(dir, LAUNCHER), 'node --version && printf "<%s>"', 'two words', '--flag'],
			{
				cwd: dir,
				encoding: 'utf8',
				env: { ...process.env, PATH: `${join(dir, nodeFolder)}:${process.env.PATH}` },
			},
		);
		expect([run.status, existsSync(join(dir, 'asked')), run.stdout]).toEqual([
			0,
			asks,
			'v24.21.0\n<two words><--flag>',
		]);
		expect(run.stderr).toMatch(stderr);
	});
});
