const tsJest = ['ts-jest', { diagnostics: false }];

const project = (name, extra = {}) => ({
	displayName: name,
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	// n8n, Node 24 and the installer test's registry are installed there: nothing for jest to map.
	modulePathIgnorePatterns: ['<rootDir>/.cache/'],
	...extra,
});

const compatFiles = [
	'credentials',
	'agent-tools',
	'triggers',
	'callbacks',
	'redelivery',
	'item-linking',
	'large-deliveries',
	'schedule-watch',
].map((file) => `<rootDir>/test/e2e/${file}.test.ts`);

/**
 * e2e files that queue mode does not run again. In queue mode a worker runs the nodes' code as the
 * regular process does; what differs is where webhooks arrive, how a waiting execution is saved and
 * resumed, and several processes sharing the service. These files test none of that.
 */
const notRepeatedInQueueMode = [
	// What the main process shows: credential tests, the 3.0 Migration Report on saved workflows.
	'credentials',
	'migration-report',
	// The resume cliff straight to n8n and through the front: the twin's front is the shipped one,
	// and test/e2e-queue/waiting-at-scale.test.ts resumes a burst through it.
	'resume-burst',
	// An n8n of its own, restarted: what the leader's watcher does at start does not depend on
	// where executions run (schedule-watch.test.ts runs in queue mode).
	'schedule-watch-restart',
];

module.exports = {
	// CI's summary reads what each run reports (only with CI_SUMMARY_DIR set: see .ci/run).
	reporters: ['default', '<rootDir>/scripts/ci-jest-report.js'],
	testSequencer: '<rootDir>/scripts/jest-sequencer.js',
	projects: [
		project('unit'),
		project('engine', {
			setupFiles: ['<rootDir>/test/engine/setup-env.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/engine/setup-retry.ts'],
			testTimeout: 30000,
		}),
		project('simulator'),
		project('package'),
		project('e2e', {
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
		// The e2e suite again against queue mode, plus the queue-only tests. Not repeated there: what
		// runs in the main process alone or does not depend on where an execution runs (see
		// notRepeatedInQueueMode).
		project('e2e-queue', {
			testMatch: ['<rootDir>/test/e2e/**/*.test.ts', '<rootDir>/test/e2e-queue/**/*.test.ts'],
			testPathIgnorePatterns: [
				'/node_modules/',
				'\\.browser\\.test\\.ts$',
				...notRepeatedInQueueMode.map((file) => `/test/e2e/${file}\\.test\\.ts$`),
			],
			globals: { __N8N_E2E_MODE__: 'queue' },
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
		// The compatibility subset, run against other n8n versions (N8N_VERSION=…, see README): the
		// nodes and credentials loaded, every operation as an agent's tool, both triggers' lifecycles,
		// Wait for Completion resumed and failed, item links across a wait, the credential tests and
		// large deliveries.
		project('e2e-compat', {
			testMatch: compatFiles,
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
		project('e2e-compat-queue', {
			testMatch: compatFiles,
			globals: { __N8N_E2E_MODE__: 'queue' },
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
		// The package installed, run, updated and removed through n8n's own community-node installer,
		// from a local registry: an n8n of its own, no global setup.
		project('e2e-install'),
		// One-off measurements in real n8n (not part of npm test): bench/measure/*.measure.ts.
		project('measure', {
			testMatch: ['<rootDir>/bench/measure/**/*.measure.ts'],
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
		project('measure-queue', {
			testMatch: ['<rootDir>/bench/measure/**/*.measure.ts'],
			globals: { __N8N_E2E_MODE__: 'queue' },
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
	],
};
