// CI's closing table (.ci/run calls it on exit, pass or fail): each phase, its time, the tests of
// its jest runs (scripts/ci-jest-report.js) and how long it went on after its last test ended,
// then every fault of n8n's that a test tolerated (test/e2e/harness/n8nFaults.ts).
// Usage: node scripts/ci-summary.mjs <CI_SUMMARY_DIR>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
	console.error('usage: node scripts/ci-summary.mjs <CI_SUMMARY_DIR>');
	process.exit(2);
}
const lines = (file) =>
	existsSync(file)
		? readFileSync(file, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((line) => line.split('\t'))
		: [];

const phases = lines(path.join(dir, 'phases.tsv')).map(([name, start, end, status]) => ({
	name,
	start: Number(start),
	end: Number(end),
	status,
}));
const runs = existsSync(dir)
	? readdirSync(dir)
			.filter((file) => /^jest-.*\.json$/.test(file))
			.map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')))
			.sort((a, b) => a.completedAt - b.completedAt)
	: [];
const faults = lines(path.join(dir, 'n8n-faults.tsv'));

// /proc/stat samples (.ci/run): "<ms> cpu user nice system idle iowait irq softirq steal …".
const cpuSamples = existsSync(path.join(dir, 'cpu.txt'))
	? readFileSync(path.join(dir, 'cpu.txt'), 'utf8')
			.split('\n')
			.map((line) => line.trim().split(/\s+/))
			.filter((fields) => fields[1] === 'cpu')
			.map(([at, , ...ticks]) => {
				const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks.map(Number);
				return {
					at: Number(at),
					busy: user + nice + system + irq + softirq + (steal || 0),
					all: user + nice + system + idle + iowait + irq + softirq + (steal || 0),
				};
			})
	: [];
/** Share of all CPUs' time spent busy between two instants, from the samples nearest them. */
function cpuBusy(start, end) {
	const inside = cpuSamples.filter((sample) => sample.at >= start && sample.at <= end);
	if (inside.length < 2) return '';
	const first = inside[0];
	const last = inside[inside.length - 1];
	return `${Math.round((100 * (last.busy - first.busy)) / (last.all - first.all))} %`;
}

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const rows = phases.map((phase) => {
	const own = runs.filter((run) => run.phase === phase.name);
	const sum = (key) => own.reduce((total, run) => total + run[key], 0);
	const last = own[own.length - 1];
	return [
		phase.name,
		seconds(phase.end - phase.start),
		cpuBusy(phase.start, phase.end),
		phase.status === '0' ? 'ok' : `**exit ${phase.status}**`,
		own.length ? String(own.length) : '',
		own.length ? String(sum('passed')) : '',
		own.length ? String(sum('failed')) : '',
		own.length ? String(sum('skipped')) : '',
		last ? seconds(phase.end - last.lastTestEndedAt) : '',
	];
});
const total = (key) => runs.reduce((sum, run) => sum + run[key], 0);
const first = phases[0];
const final = phases[phases.length - 1];
rows.push([
	'**total**',
	first ? seconds(final.end - first.start) : '',
	first ? cpuBusy(first.start, final.end) : '',
	phases.every((phase) => phase.status === '0') ? 'ok' : '**failed**',
	String(runs.length),
	String(total('passed')),
	String(total('failed')),
	String(total('skipped')),
	'',
]);

const header = [
	'phase',
	'time',
	'CPU busy',
	'result',
	'jest runs',
	'passed',
	'failed',
	'skipped',
	'after the last test',
];
console.log('\n=== CI summary');
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
for (const run of runs.filter((run) => run.failedFiles.length > 0)) {
	console.log(
		`failed in "${run.phase}"${run.label ? ` (${run.label})` : ''}: ${run.failedFiles.join(', ')}`,
	);
}

const byKind = new Map();
for (const [kind] of faults) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
console.log(
	byKind.size === 0
		? 'n8n faults tolerated by a test: none'
		: `n8n faults tolerated by a test: ${[...byKind].map(([kind, n]) => `${kind} ×${n}`).join(', ')}`,
);
for (const [kind, detail] of faults) console.log(`  ${kind}: ${detail}`);

// The slowest test files, wherever they ran: where CI's time goes.
const files = lines(path.join(dir, 'files.tsv'))
	.map(([phase, project, file, seconds]) => ({ phase, project, file, seconds: Number(seconds) }))
	.sort((a, b) => b.seconds - a.seconds)
	.slice(0, 12);
if (files.length > 0) {
	console.log('slowest test files:');
	for (const { project, file, seconds } of files) {
		console.log(`  ${Math.round(seconds)} s  ${file} (${project})`);
	}
}
