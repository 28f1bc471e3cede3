const tsJest = ['ts-jest', { diagnostics: false }];

const project = (name, extra = {}) => ({
	displayName: name,
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': tsJest },
	testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
	...extra,
});

module.exports = {
	projects: [
		project('unit'),
		project('engine', { setupFiles: ['<rootDir>/test/engine/setup-env.ts'], testTimeout: 30000 }),
		project('simulator'),
		project('package'),
		project('e2e', {
			globalSetup: '<rootDir>/test/e2e/harness/global-setup.ts',
			globalTeardown: '<rootDir>/test/e2e/harness/global-teardown.ts',
		}),
	],
};
