import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const SCRIPT = 'scripts/readme-commands.mjs';
const FIX = `(README.md's "Try it first" bash block, ${SCRIPT} and .ci/run must agree; see CONTRIBUTING.md, "The README's two commands")`;

/** Calls an export of the script in a Node of its own (jest here does not load ES modules). */
function callScript<T>(expression: string, input: unknown): T {
	const source = `import * as m from './${SCRIPT}'; const input = JSON.parse(process.argv[1]); try { process.stdout.write(JSON.stringify({ value: ${expression} })); } catch (error) { process.stdout.write(JSON.stringify({ error: error.message })); }`;
	const run = spawnSync(
		process.execPath,
		['--input-type=module', '-e', source, JSON.stringify(input)],
		{ cwd: root, encoding: 'utf8' },
	);
	expect(run.stderr).toBe('');
	const answer = JSON.parse(run.stdout) as { value?: T; error?: string };
	if (answer.error !== undefined) throw new Error(answer.error);
	return answer.value as T;
}

const commandsOf = (markdown: string) =>
	callScript<{ try: string; test: string; install: string }>('m.readmeCommands(input)', markdown);

/** .ci/run's lines that run something, comments and blank lines dropped. */
const ciLines = read('.ci/run')
	.split('\n')
	.map((line) => line.trim())
	.filter((line) => line !== '' && !line.startsWith('#'));
const indexOfLine = (line: string): number => ciLines.indexOf(line);
/** How .ci/run gives a README command the machine's own PATH, which it keeps before changing it. */
const MACHINE_PATH = 'PATH="$machine_path" ';

describe("the README's two commands, as CI runs them", () => {
	const readme = read('README.md');
	const commands = commandsOf(readme);

	it('are read from the "Try it first" bash block: one that starts n8n, one that tests', () => {
		const block = /## Try it first[\s\S]*?```bash\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
		expect(block).toContain(commands.try);
		expect(block).toContain(commands.test);
		expect(commands.try).toMatch(/ && npm start$/);
		expect(commands.test).toMatch(/ && npm test$/);
		expect(commands.try.startsWith(`${commands.install} && `)).toBe(true);
	});

	it('are refused when the README no longer holds both', () => {
		const edited = readme.replace(commands.test, 'npm run test:fast');
		expect(() => commandsOf(edited)).toThrow(/one ending in `npm test`/);
		const diverged = readme.replace(commands.test, 'npm ci && npm test');
		expect(() => commandsOf(diverged)).toThrow(/begin with the same install step/);
	});

	it('are what .ci/run runs: it takes them from the script, nothing of its own', () => {
		const problems: string[] = [];
		for (const what of ['install', 'try', 'test']) {
			if (indexOfLine(`readme_${what}="$("\${readme_commands[@]}" ${what})"`) < 0)
				problems.push(`.ci/run does not read the ${what} command from ${SCRIPT}`);
		}
		if (indexOfLine(`readme_commands=(node ${SCRIPT})`) < 0)
			problems.push(`.ci/run does not call ${SCRIPT}`);
		const install = indexOfLine(`${MACHINE_PATH}bash -c "$readme_install"`);
		const test = indexOfLine(`${MACHINE_PATH}bash -c "$readme_test"`);
		const tryRun = ciLines.findIndex((line) =>
			line.startsWith(`${MACHINE_PATH}"\${readme_commands[@]}" run-try`),
		);
		if (install < 0 || test < 0 || tryRun < 0)
			problems.push('.ci/run does not run the install, test and try commands it read');
		else if (!(install < test && test < tryRun))
			problems.push(
				'.ci/run must install first, test next and run the try command after the tests',
			);
		const ownCommands = ciLines.filter((line) =>
			/^(npm (ci|install|test|start)\b|npx jest)/.test(line),
		);
		if (ownCommands.length > 0)
			problems.push(`.ci/run installs, tests or starts by itself: ${ownCommands.join(' | ')}`);
		if (problems.length > 0) throw new Error(`${problems.join('\n')}\n${FIX}`);
	});

	it("run in CI with the machine's own Node first on PATH, as a newcomer runs them", () => {
		// Kept before anything changes PATH (the Node 24 phase puts Node 24 first for CI's own phases).
		const kept = indexOfLine('machine_path="$PATH"');
		const changesPath = ciLines.findIndex((line) => /(^|[\s;])(export )?PATH=/.test(line));
		expect(kept).toBeGreaterThanOrEqual(0);
		expect(changesPath).toBeGreaterThanOrEqual(0);
		expect(kept).toBeLessThan(changesPath);
		expect(ciLines.filter((line) => /\bmachine_path=/.test(line))).toEqual([
			'machine_path="$PATH"',
		]);
		// Every line that runs a README command gives it that PATH.
		const runsReadme = ciLines.filter(
			(line) =>
				/bash -c "\$readme_(install|test|try)"/.test(line) ||
				/"\$\{readme_commands\[@\]\}" run-try/.test(line),
		);
		expect(runsReadme).toHaveLength(3);
		for (const line of runsReadme) expect(line.startsWith(MACHINE_PATH)).toBe(true);
	});

	it('waits for the line npm start prints once it is ready (scripts/start.ts)', () => {
		const start = read('scripts/start.ts');
		const template = /`n8n \$\{n8nVersion\} with \$\{packageName\} is ready \(\$\{elapsed\(\)\}\)`/;
		const elapsed =
			/const elapsed = \(\) => `\$\{\(\(Date\.now\(\) - started\) \/ 1000\)\.toFixed\(1\)\} s`/;
		if (!template.test(start) || !elapsed.test(start)) {
			throw new Error(
				`scripts/start.ts no longer prints "n8n <version> with <package> is ready (<n.n> s)": update ` +
					`READY_LINE in ${SCRIPT} to what it prints now, and this test's copy of the line.`,
			);
		}
		const printed = `\nn8n 2.41.1 with n8n-nodes-review-scraping is ready (13.7 s)\n\n  Editor`;
		expect(callScript<boolean>('m.READY_LINE.test(input)', printed)).toBe(true);
		expect(callScript<boolean>('m.READY_LINE.test(input)', '[start 3.4 s] starting n8n\n')).toBe(
			false,
		);
	});
});
