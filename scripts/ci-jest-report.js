// A jest reporter for CI's summary (scripts/ci-summary.mjs): with CI_SUMMARY_DIR set, each jest run
// writes its counts, the phase it ran in (CI_PHASE) and when its last test ended, so the summary
// can show what jest itself does not print: the time a run stays alive after its last test.
const { appendFileSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const { runsAlone } = require('./jest-sequencer');

/** CPU seconds the whole machine has spent busy since boot (/proc/stat), or NaN off Linux. */
function machineBusySeconds() {
	try {
		const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
			.split('\n')[0]
			.trim()
			.split(/\s+/)
			.map(Number);
		return (user + nice + system + irq + softirq + steal) / 100;
	} catch {
		return NaN;
	}
}

class CiJestReport {
	busyAtFileStart = new Map();

	onTestFileStart(test) {
		this.busyAtFileStart.set(test.path, machineBusySeconds());
	}

	// A line per test file as it ends (phase, project, file, seconds, failed tests, 1 for a file that
	// runs alone, CPU seconds the machine spent meanwhile): the summary's slowest files, and the
	// moment .ci/run starts the queue suite. The CPU column is the file's own only when nothing
	// else ran beside it (one worker, no lane).
	onTestResult(test, result) {
		const dir = process.env.CI_SUMMARY_DIR;
		if (!dir) return;
		mkdirSync(dir, { recursive: true });
		const seconds = ((result.perfStats.end - result.perfStats.start) / 1000).toFixed(1);
		const failed = result.numFailingTests + (result.testExecError ? 1 : 0);
		const line = [
			process.env.CI_PHASE ?? '',
			test.context.config.displayName?.name ?? '',
			path.relative(process.cwd(), test.path),
			seconds,
			failed,
			runsAlone(test.path) ? 1 : 0,
			(machineBusySeconds() - (this.busyAtFileStart.get(test.path) ?? NaN)).toFixed(0),
		].join('\t');
		appendFileSync(path.join(dir, 'files.tsv'), `${line}\n`);
	}

	onRunComplete(_contexts, results) {
		const dir = process.env.CI_SUMMARY_DIR;
		if (!dir) return;
		mkdirSync(dir, { recursive: true });
		const lastTestEnd = Math.max(
			results.startTime,
			...results.testResults.map((file) => file.perfStats?.end ?? 0),
		);
		const report = {
			phase: process.env.CI_PHASE ?? '',
			label: process.env.CI_RUN_LABEL ?? '',
			startedAt: results.startTime,
			lastTestEndedAt: lastTestEnd,
			completedAt: Date.now(),
			passed: results.numPassedTests,
			failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
			skipped: results.numPendingTests + results.numTodoTests,
			failedFiles: results.testResults
				.filter((file) => file.numFailingTests > 0 || file.testExecError)
				.map((file) => path.relative(process.cwd(), file.testFilePath)),
		};
		const file = path.join(dir, `jest-${Date.now()}-${process.pid}.json`);
		writeFileSync(file, JSON.stringify(report, null, '\t'));
	}
}

module.exports = CiJestReport;
