// Files that run first in their jest run, before anything shares the machine with them: CI starts
// the queue suite beside the rest of the end-to-end suite once they are done (.ci/run, which reads
// them from files.tsv). Chromium loading n8n's editor timed out beside a cluster starting; the
// 100 MiB delivery, the resume burst and the burst load n8n on purpose, and beside the queue
// suite's faults test a 100 MiB delivery went unanswered until the service gave up.
const Sequencer = require('@jest/test-sequencer').default;

const RUN_ALONE = [
	/\.browser\.test\.ts$/,
	/\/large-deliveries\.test\.ts$/,
	/\/resume-burst\.test\.ts$/,
	/\/burst\.test\.ts$/,
];

// The queue suite's faults test restarts every process of the stack's twin and ends with Ctrl-C.
const RUNS_LAST = /\/faults\.test\.ts$/;

const runsAlone = (file) => RUN_ALONE.some((pattern) => pattern.test(file));

class RunAloneFirst extends Sequencer {
	async sort(tests) {
		const sorted = await super.sort(tests);
		const middle = (test) => !runsAlone(test.path) && !RUNS_LAST.test(test.path);
		return [
			...sorted.filter((test) => runsAlone(test.path)),
			...sorted.filter(middle),
			...sorted.filter((test) => RUNS_LAST.test(test.path)),
		];
	}
}

module.exports = RunAloneFirst;
module.exports.runsAlone = runsAlone;
