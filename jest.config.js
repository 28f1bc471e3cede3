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
	'node-types',
	'credentials',
	'review-scraper',
	'scrapers',
	'triggers',
	'callbacks',
	'redelivery',
	'social-requests',
	'item-linking',
	'large-deliveries',
	'edges',
	'settings-matrix',
	'callback-reachability',
	'agent-tools',
	'schedule-watch',
].map((file) => `<rootDir>/test/e2e/${file}.test.ts`);

/**
 * e2e files that queue mode does not run again. In queue mode a worker runs the nodes' code as the
 * regular process does; what differs is where webhooks arrive, how a waiting execution is saved and
 * resumed, and several processes sharing the service. These files test none of that.
 */
const notRepeatedInQueueMode = [
	// The nodes' retries and error mapping, inside one execution.
	'fault-matrix',
	// One execution's pacing; test/e2e-queue/rate-limit.test.ts has two workers share the limit.
	'rate-limit',
	// The Settings tab (On Error x Retry On Fail) inside one execution; none of its cases waits.
	'settings-matrix',
	// The request bodies the nodes send, read back from the simulator.
	'service-fields',
	// The callback check inside one execution, before anything is sent.
	'callback-reachability',
	'social-requests',
	// What the main process loads and shows: node types, credential tests, the nodes as tools,
	// the 3.0 Migration Report on saved workflows.
	'node-types',
	'credentials',
	'tools',
	'migration-report',
	// The resume cliff is the default engine's; CI's queue cluster runs its webhook processes (where
	// resume calls land) on the legacy one, and test/e2e-queue/waiting-at-scale.test.ts resumes a
	// burst there.
	'resume-burst',
	// Scraping Delivery's repeat filter lives in the process that runs it: across two workers a
	// repeat needs Remove Duplicates on deliveryKey (docs/nodes/scraping-delivery.md), as for the
	// trigger's webhook processes.
	'scraping-delivery',
	// An n8n of its own, restarted: what the leader's watcher does at start does not depend on
	// where executions run (schedule-watch.test.ts runs in queue mode).
	'schedule-watch-restart',
];

module.exports = {
	// CI's summary reads what each run reports (only with CI_SUMMARY_DIR set: see .ci/run).
	reporters: ['default', '<rootDir>/scripts/ci-jest-report.js'],
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
		// The compatibility subset, run against other n8n versions (N8N_VERSION=…, see README): every
		// node and operation, both triggers' lifecycles, Wait for Completion resumed and failed, the
		// credential tests, Add Many's input modes and the Recurring Reviews Trigger's watching.
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
		// One-off measurements in real n8n (not part of npm test): test/measure/*.measure.ts.
		project('measure', {
			testMatch: ['<rootDir>/test/measure/**/*.measure.ts'],
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
		project('measure-queue', {
			testMatch: ['<rootDir>/test/measure/**/*.measure.ts'],
			globals: { __N8N_E2E_MODE__: 'queue' },
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
	],
};
