import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const SCRIPT = 'scripts/readme-commands.mjs';

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

	it("are what .ci/run runs, in that order, under the machine's own PATH (as a newcomer runs them)", () => {
		const read = ['install', 'try', 'test'].map((what) =>
			indexOfLine(`readme_${what}="$("\${readme_commands[@]}" ${what})"`),
		);
		expect([indexOfLine(`readme_commands=(node ${SCRIPT})`), ...read].every((at) => at >= 0)).toBe(
			true,
		);
		const runs = [
			indexOfLine(`${MACHINE_PATH}bash -c "$readme_install"`),
			indexOfLine(`${MACHINE_PATH}bash -c "$readme_test"`),
			ciLines.findIndex((line) =>
				line.startsWith(`${MACHINE_PATH}"\${readme_commands[@]}" run-try`),
			),
		];
		expect(runs.every((at, i) => at >= 0 && (i === 0 || at > runs[i - 1]))).toBe(true);
		// Nothing of its own, and no README command without the machine's PATH. CI's own jest runs
		// (called directly: nothing rebuilds dist/ while the queue suite runs beside them) select
		// projects other than those of the README's test command.
		expect(ciLines.filter((line) => /^npm (ci|install|test|start)\b/.test(line))).toEqual([]);
		const ownJestRuns = ciLines.filter((line) => /\bnpx jest\b/.test(line));
		expect(ownJestRuns.length).toBeGreaterThan(0);
		for (const line of ownJestRuns) {
			const projects = /--selectProjects ((?:[\w-]+ ?)+)/.exec(line)?.[1].trim().split(' ') ?? [];
			expect(projects.length).toBeGreaterThan(0);
			for (const project of projects) {
				expect(['unit', 'engine', 'simulator', 'package', 'e2e']).not.toContain(project);
			}
		}
		const readmeRuns = ciLines.filter((line) =>
			/bash -c "\$readme_|"\$\{readme_commands\[@\]\}" run-try/.test(line),
		);
		expect(readmeRuns.filter((line) => !line.startsWith(MACHINE_PATH))).toEqual([]);
		// That PATH is kept once, before anything changes PATH (CI's own phases put Node 24 first).
		expect(ciLines.filter((line) => /\bmachine_path=/.test(line))).toEqual([
			'machine_path="$PATH"',
		]);
		const changesPath = ciLines.findIndex((line) => /(^|[\s;])(export )?PATH=/.test(line));
		expect(indexOfLine('machine_path="$PATH"')).toBeLessThan(changesPath);
	});

	it('waits for the line npm start prints once it is ready (scripts/start.ts)', () => {
		const start = read('scripts/start.ts');
		const template = /`n8n \$\{n8nVersion\} with \$\{packageName\} is ready \(\$\{elapsed\(\)\}\)`/;
		const elapsed =
			/const elapsed = \(\) => `\$\{\(\(Date\.now\(\) - started\) \/ 1000\)\.toFixed\(1\)\} s`/;
		// Else update READY_LINE in the script to what scripts/start.ts prints now, and this copy.
		expect([template.test(start), elapsed.test(start)]).toEqual([true, true]);
		const printed = `\nn8n 2.41.1 with n8n-nodes-review-scraping is ready (13.7 s)\n\n  Editor`;
		expect(callScript<boolean>('m.READY_LINE.test(input)', printed)).toBe(true);
		expect(callScript<boolean>('m.READY_LINE.test(input)', '[start 3.4 s] starting n8n\n')).toBe(
			false,
		);
	});
});
