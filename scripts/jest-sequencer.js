// The browser checks run first in their jest run: CI starts the queue suite beside the rest of the
// end-to-end suite once they are done (.ci/run), since Chromium loading n8n's editor is what
// timed out when that suite's cluster started at the same time.
const Sequencer = require('@jest/test-sequencer').default;

const isBrowserCheck = (test) => test.path.endsWith('.browser.test.ts');

class BrowserChecksFirst extends Sequencer {
	async sort(tests) {
		const sorted = await super.sort(tests);
		return [...sorted.filter(isBrowserCheck), ...sorted.filter((test) => !isBrowserCheck(test))];
	}
}

module.exports = BrowserChecksFirst;
