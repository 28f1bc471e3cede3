// Compatibility run: the e2e-compat subset (jest.config.js) against each n8n version given, in
// regular mode (or queue mode with --queue), then the results into test/compat/results.json and the
// README's compatibility table. Build first (npm run build).
// Usage: node scripts/compat.mjs [--queue] <n8n version>...
//        node scripts/compat.mjs --table-only [--check]  (--check: exit 1 if the README's table is
//        not results.json's, without writing)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsFile = path.join(root, 'test', 'compat', 'results.json');
const readme = path.join(root, 'README.md');
const START = '<!-- compat-table:start -->';
const END = '<!-- compat-table:end -->';

const args = process.argv.slice(2);
const mode = args.includes('--queue') ? 'queue' : 'regular';
const versions = args.filter((arg) => !arg.startsWith('--'));
const tableOnly = args.includes('--table-only');
const checkOnly = args.includes('--check');
if (versions.length === 0 && !tableOnly) {
	console.error('usage: node scripts/compat.mjs [--queue] <n8n version>...  (or --table-only)');
	process.exit(2);
}

const runtime = (version, extra = []) =>
	execFileSync('bash', [path.join(root, 'scripts', 'n8n-runtime.sh'), ...extra], {
		cwd: root,
		env: { ...process.env, N8N_VERSION: version },
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	}).trim();

const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [];
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
	cwd: root,
	encoding: 'utf8',
}).trim();
let failed = false;
// A row names the commit it ran on: with uncommitted changes that commit is not what ran.
const uncommitted = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
	cwd: root,
	encoding: 'utf8',
})
	.split('\n')
	.filter((line) => line && !/^.. (test\/compat\/results\.json|README\.md)$/.test(line));
if (versions.length > 0 && uncommitted.length > 0) {
	console.warn(
		`uncommitted changes (${uncommitted.length} files): the rows are marked ${commit}+changes`,
	);
}
const runCommit = uncommitted.length > 0 ? `${commit}+changes` : commit;

for (const version of versions) {
	runtime(version);
	const node = execFileSync(path.join(runtime(version, ['--node-bin']), 'node'), ['-v'], {
		encoding: 'utf8',
	}).trim();
	const report = path.join(root, 'test-artifacts', 'compat', `${version}-${mode}.json`);
	mkdirSync(path.dirname(report), { recursive: true });
	console.log(`\n=== compatibility subset on n8n ${version}, ${mode} mode, Node ${node}`);
	const started = Date.now();
	const run = spawnSync(
		'npx',
		[
			'jest',
			'--selectProjects',
			mode === 'queue' ? 'e2e-compat-queue' : 'e2e-compat',
			'--runInBand',
			'--testTimeout=180000',
			// Results are in the report when the run ends; a handle left open must not hang CI.
			'--forceExit',
			'--json',
			`--outputFile=${report}`,
		],
		{
			cwd: root,
			env: { ...process.env, N8N_VERSION: version, CI_RUN_LABEL: `n8n ${version} ${mode}` },
			stdio: 'inherit',
		},
	);
	const seconds = Math.round((Date.now() - started) / 1000);
	const jest = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : undefined;
	const entry = {
		n8n: version,
		node,
		mode,
		passed: run.status === 0 && jest?.success === true,
		tests: jest
			? {
					passed: jest.numPassedTests,
					failed: jest.numFailedTests,
					skipped: jest.numPendingTests + jest.numTodoTests,
				}
			: null,
		files: jest ? jest.testResults.map((r) => path.relative(root, r.name)).sort() : [],
		seconds,
		date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
		commit: runCommit,
	};
	failed ||= !entry.passed;
	console.log(
		`=== n8n ${version} (${mode}): ${entry.passed ? 'passed' : 'FAILED'} in ${seconds} s`,
		entry.tests,
	);
	const at = results.findIndex((r) => r.n8n === version && r.mode === mode && r.node === node);
	if (at >= 0) results[at] = entry;
	else results.push(entry);
}

if (versions.length > 0) {
	results.sort((a, b) => compareVersions(a.n8n, b.n8n) || a.mode.localeCompare(b.mode));
	mkdirSync(path.dirname(resultsFile), { recursive: true });
	writeFileSync(resultsFile, `${JSON.stringify(results, null, '\t')}\n`);
}
if (checkOnly) {
	const current = readFileSync(readme, 'utf8');
	if (current !== renderTable(current, results)) {
		console.error(
			"README.md: the compatibility table is not test/compat/results.json's (run node scripts/compat.mjs --table-only)",
		);
		process.exit(1);
	}
	process.exit(0);
}
writeFileSync(readme, renderTable(readFileSync(readme, 'utf8'), results));
process.exit(failed ? 1 : 0);

function compareVersions(a, b) {
	const pa = a.split('.').map(Number);
	const pb = b.split('.').map(Number);
	for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
	return 0;
}

function renderTable(text, entries) {
	const from = text.indexOf(START);
	const to = text.indexOf(END);
	if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} section`);
	const rows = entries.map((r) => {
		const tests = r.tests
			? `${r.tests.passed} passed, ${r.tests.failed} failed${r.tests.skipped ? `, ${r.tests.skipped} skipped` : ''}`
			: 'did not run';
		return `| ${r.n8n} | ${r.node} | ${r.mode} | compatibility subset (${r.files.length} files) | ${r.passed ? 'pass' : '**FAIL**'}: ${tests} | ${r.date}, ${r.seconds} s, commit ${r.commit} |`;
	});
	const table = [
		'| n8n | Node | mode | tested | result | run |',
		'| --- | --- | --- | --- | --- | --- |',
		...rows,
	].join('\n');
	const generated = `${START}\n<!-- generated by \`node scripts/compat.mjs\` from test/compat/results.json -->\n${table}\n`;
	return text.slice(0, from) + generated + text.slice(to);
}
