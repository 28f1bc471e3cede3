import { credentialsFor, startReceiver, API_KEY, TOKEN, useSimulator } from './fixtures';
import { expectedWorkflows, runOperation } from './workflows';

/** Every operation that calls the service, from its workflow file: no token or key anywhere. */
const context = useSimulator();
const WRONG_TOKEN = 'wrong-token-5f1c9a';
const WRONG_KEY = 'wrong-key-83be21';
const SECRETS = [TOKEN, API_KEY, WRONG_TOKEN, WRONG_KEY];
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let logged: string[] = [];
beforeAll(async () => {
	receiver = await startReceiver();
	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
		jest
			.spyOn(console, method)
			.mockImplementation((...args) => void logged.push(args.map(String).join(' ')));
	}
});
afterAll(async () => {
	jest.restoreAllMocks();
	await receiver.close();
});
beforeEach(() => (logged = []));

function expectNoSecret(what: unknown) {
	const text = JSON.stringify(what, (_key, value) =>
		value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
	);
	for (const secret of SECRETS) expect(text).not.toContain(secret);
}

const calling = expectedWorkflows().filter(({ workflow }) => workflow.requests.length > 0);

it.each(calling)(
	'$file: success, refused credentials and service failure',
	async ({ workflow }) => {
		const run = (options: Parameters<typeof runOperation>[3] = {}) =>
			runOperation(context.sim, receiver.url, workflow, options);
		const success = await run();
		expect(success.run.status).toBe('success');
		expectNoSecret(success.run.run);

		const wrong = credentialsFor(context.sim, { token: WRONG_TOKEN, apiKey: WRONG_KEY });
		const refused = await run({ credentials: wrong });
		expect(refused.run.status).toBe('error');
		expectNoSecret([refused.run.run, refused.run.error]);

		for (const kind of ['500', 'reset-before'] as const) {
			const failed = await run({
				settings: { continueOnFail: kind === '500' },
				arranged: () => void context.sim.injectFault({ kind, times: 10 }),
			});
			expect(failed.requests.some((request) => request.fault === kind)).toBe(true);
			expectNoSecret([failed.run.run, failed.run.error]);
			context.sim.reset();
		}
		expectNoSecret(logged);
	},
);
