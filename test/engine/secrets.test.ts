import type { INodeParameters } from 'n8n-workflow';

import { API_KEY, runNode, TOKEN, useSimulator } from './fixtures';

const context = useSimulator();
const WRONG_TOKEN = 'wrong-token-5f1c9a';
const WRONG_KEY = 'wrong-key-83be21';
const SECRETS = [TOKEN, API_KEY, WRONG_TOKEN, WRONG_KEY];

type Spec = { type: string; parameters: INodeParameters };
const review = (parameters: INodeParameters): Spec => ({
	type: 'n8n-nodes-review-scraping.reviewScraper',
	parameters,
});
const scraping = (node: string, parameters: INodeParameters): Spec => ({
	type: `n8n-nodes-review-scraping.${node}`,
	parameters,
});

const operations: Array<[string, Spec]> = [
	[
		'profile add',
		review({ resource: 'profile', operation: 'add', url: 'https://r.example.com/1' }),
	],
	[
		'profile add many',
		review({ resource: 'profile', operation: 'addMany', url: 'https://r.example.com/2' }),
	],
	[
		'respond job get many',
		review({ resource: 'respondJob', operation: 'getAll', returnAll: true }),
	],
	['respond job get', review({ resource: 'respondJob', operation: 'get', jobId: 7001 })],
	['listing audit', review({ resource: 'listingAudit', operation: 'get', jobId: 7001 })],
	[
		'schedule create',
		scraping('scrapingScheduler', {
			resource: 'schedule',
			operation: 'create',
			parametersInput: 'keyValue',
			queryParameters: {
				parameter: [
					{ name: 'url', value: 'https://r.example.com/3' },
					{ name: 'callback', value: 'https://n8n.example.com/webhook/secrets' },
				],
			},
		}),
	],
	[
		'schedule get many',
		scraping('scrapingScheduler', { resource: 'schedule', operation: 'getAll', returnAll: true }),
	],
	[
		'schedule get',
		scraping('scrapingScheduler', {
			resource: 'schedule',
			operation: 'get',
			scheduleId: { __rl: true, mode: 'id', value: '1' },
		}),
	],
	[
		'schedule delete',
		scraping('scrapingScheduler', {
			resource: 'schedule',
			operation: 'deleteSchedule',
			scheduleId: { __rl: true, mode: 'id', value: '1' },
		}),
	],
	[
		'product search',
		scraping('ecommerceSearch', {
			resource: 'product',
			operation: 'search',
			keyword: 'headphones',
			callbackUrl: 'https://n8n.example.com/webhook/p',
		}),
	],
	[
		'photo search',
		scraping('socialScraper', {
			resource: 'photoPost',
			operation: 'search',
			keyword: '#pizza',
			callbackUrl: 'https://n8n.example.com/webhook/ph',
		}),
	],
	[
		'photo status',
		scraping('socialScraper', {
			resource: 'photoPost',
			operation: 'getStatus',
			requestId: 'unknown-1',
		}),
	],
	[
		'photo results',
		scraping('socialScraper', {
			resource: 'photoPost',
			operation: 'getResults',
			requestId: 'unknown-2',
		}),
	],
	[
		'social scrape',
		scraping('socialScraper', {
			resource: 'socialPost',
			operation: 'scrape',
			url: 'https://social.example.com/p/1',
			callbackUrl: 'https://n8n.example.com/webhook/s',
		}),
	],
	[
		'social results',
		scraping('socialScraper', {
			resource: 'socialPost',
			operation: 'getResults',
			requestId: 'unknown-3',
		}),
	],
	[
		'video status',
		scraping('socialScraper', {
			resource: 'videoRequest',
			operation: 'getStatus',
			requestId: 'unknown-4',
		}),
	],
];

function expectNoSecret(what: unknown) {
	const text = JSON.stringify(what, (_key, value) =>
		value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
	);
	for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('no token or key in output, errors or logs', () => {
	let logged: string[] = [];
	const spies: jest.SpyInstance[] = [];
	beforeAll(() => {
		for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
			spies.push(
				jest
					.spyOn(console, method)
					.mockImplementation((...args) => void logged.push(args.map(String).join(' '))),
			);
		}
	});
	afterAll(() => spies.forEach((spy) => spy.mockRestore()));
	beforeEach(() => (logged = []));

	it.each(operations)(
		'%s: success, refused credentials and service failure',
		async (_name, spec) => {
			const success = await runNode(context.sim, { ...spec, continueOnFail: true });
			expectNoSecret(success.run);

			const refused = await runNode(context.sim, spec, [{}], {
				token: WRONG_TOKEN,
				apiKey: WRONG_KEY,
			});
			expect(refused.status).toBe('error');
			expectNoSecret(refused.run);
			expectNoSecret(refused.error);

			context.sim.injectFault({ kind: '500', times: 10 });
			const failed = await runNode(context.sim, { ...spec, continueOnFail: true });
			expect(failed.items()[0].error).toBeDefined();
			expectNoSecret(failed.run);
			context.sim.clearFaults();

			context.sim.injectFault({ kind: 'reset-before', times: 10 });
			const unreachable = await runNode(context.sim, spec);
			expect(unreachable.status).toBe('error');
			expectNoSecret(unreachable.run);
			expectNoSecret(unreachable.error);
			context.sim.clearFaults();

			expectNoSecret(logged);
		},
	);
});
