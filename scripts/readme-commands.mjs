// The README's two commands (its "Try it first" section), read from the README itself so that CI
// (.ci/run) runs what a newcomer types, and fails when one of them stops working.
// Usage:
//   node scripts/readme-commands.mjs try|test|install   prints that command (install: how both begin)
//   node scripts/readme-commands.mjs run-try [--timeout-s=<s>] [--skip-install]
//       runs the try command until `npm start` says it is ready, then stops it and all it started;
//       --skip-install leaves out its install step, for a checkout whose node_modules is shared
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README = path.join(root, 'README.md');
export const SECTION = '## Try it first';
/** What scripts/start.ts prints once n8n, the simulator, the credentials and the templates are up. */
export const READY_LINE = / with \S+ is ready \(\d+(?:\.\d+)? s\)$/m;
const STOP_GRACE_MS = 60_000;

/** The commands of the first bash block under "Try it first", comments dropped, by what they run. */
export function readmeCommands(markdown) {
	const start = markdown.indexOf(`\n${SECTION}`);
	if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
	const block = /^```bash\n([\s\S]*?)^```/m.exec(markdown.slice(start));
	if (!block) throw new Error(`README.md's "${SECTION}" section has no bash block`);
	const lines = block[1]
		.split('\n')
		.map((line) => line.replace(/\s+#.*$/, '').trim())
		.filter(Boolean);
	const ending = (script) => lines.filter((line) => line.endsWith(`npm ${script}`));
	const [tryCommand, ...moreTry] = ending('start');
	const [testCommand, ...moreTest] = ending('test');
	if (!tryCommand || !testCommand || moreTry.length > 0 || moreTest.length > 0) {
		throw new Error(
			`README.md's "${SECTION}" bash block must hold one command ending in \`npm start\` and one ` +
				`ending in \`npm test\`; it holds: ${JSON.stringify(lines)}`,
		);
	}
	const [install] = tryCommand.split(' && ');
	if (!testCommand.startsWith(`${install} && `)) {
		throw new Error(
			`README.md's two commands must begin with the same install step (CI installs once with it): ` +
				`"${tryCommand}", "${testCommand}"`,
		);
	}
	return { try: tryCommand, test: testCommand, install };
}

const portFree = (port) =>
	new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});

/** Runs the try command in a process group of its own until it is ready, then stops the group. */
async function runTry(command, timeoutMs) {
	const started = Date.now();
	const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
	console.log(`running the README's try command: ${command}`);
	const child = spawn('bash', ['-c', command], {
		cwd: root,
		detached: true,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve(signal ?? code)),
	);
	let output = '';
	const ready = new Promise((resolve) => {
		child.stdout.on('data', (chunk) => {
			process.stdout.write(chunk);
			output += chunk;
			if (READY_LINE.test(output)) resolve('ready');
		});
	});
	let timer;
	const timedOut = new Promise((resolve) => {
		timer = setTimeout(() => resolve('timed out'), timeoutMs);
	});
	const outcome = await Promise.race([ready, timedOut, exited.then((code) => `exited (${code})`)]);
	clearTimeout(timer);
	const readyAfter = seconds();
	const stopAsked = Date.now();
	const signalGroup = (signal) => {
		try {
			process.kill(-child.pid, signal);
		} catch {
			// The group has already gone.
		}
	};
	// start.ts stops n8n (a process group of its own) and the simulator on SIGTERM; npm exits before
	// they have, so the ports tell when everything has stopped.
	signalGroup('SIGTERM');
	const ports = [Number(process.env.N8N_PORT ?? 5678), Number(process.env.SIM_PORT ?? 4010)];
	const heldPorts = async () => {
		const held = [];
		for (const port of ports) if (!(await portFree(port))) held.push(port);
		return held;
	};
	let held = await heldPorts();
	let exitedYet = false;
	void exited.then(() => (exitedYet = true));
	while ((!exitedYet || held.length > 0) && Date.now() - stopAsked < STOP_GRACE_MS) {
		await new Promise((resolve) => setTimeout(resolve, 250));
		held = await heldPorts();
	}
	const stopped = exitedYet && held.length === 0;
	if (!exitedYet) signalGroup('SIGKILL');
	console.log(
		`\nREADME try command: ${outcome} after ${readyAfter} s; ` +
			`${stopped ? `stopped in ${((Date.now() - stopAsked) / 1000).toFixed(1)} s` : 'not stopped'}`,
	);
	if (outcome !== 'ready') {
		console.error(`npm start did not print that it was ready (${outcome})`);
		return 1;
	}
	if (!stopped) {
		console.error(
			`what the try command started did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM: ` +
				(held.length > 0 ? `ports ${held.join(', ')} still in use` : 'its shell had not exited'),
		);
		return 1;
	}
	return 0;
}

async function main(argv) {
	const [what, ...options] = argv;
	const commands = readmeCommands(readFileSync(README, 'utf8'));
	if (what === 'try' || what === 'test' || what === 'install') {
		console.log(commands[what]);
		return 0;
	}
	if (what === 'run-try') {
		const timeout = options.find((option) => option.startsWith('--timeout-s='));
		const timeoutS = timeout ? Number(timeout.split('=')[1]) : 600;
		const command = options.includes('--skip-install')
			? commands.try.slice(`${commands.install} && `.length)
			: commands.try;
		return runTry(command, timeoutS * 1000);
	}
	console.error(
		'usage: node scripts/readme-commands.mjs try|test|install|run-try [--timeout-s=<s>] [--skip-install]',
	);
	return 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	process.exit(await main(process.argv.slice(2)));
}
