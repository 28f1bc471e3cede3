import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative, sep } from 'node:path';
import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';

import { ReviewScraper } from '../../nodes/ReviewScraper/ReviewScraper.node';
import { ScheduledScrapeTrigger } from '../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { ScrapingCallbackTrigger } from '../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';
import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { repoRoot } from '../unit/nodeClasses';
import { credentialsFor, credentialTypes, runNode, startReceiver, useSimulator } from './fixtures';
import { HarnessCredentialsHelper, triggerHarness } from './harness';

/**
 * How far a reader walks from a node to its HTTP call, measured on n8n's engine in-process:
 * - files: the package's files whose code ran from the node's entry (`execute()`, `webhook()`, an
 *   activation hook) until n8n's HTTP helper authenticates the first request, or until the entry
 *   returns for a webhook's answer; from V8's precise coverage. tsc's getters for `export … from`
 *   are not counted (a reader skips a re-export);
 * - frames: the package's frames on the (async) stack at the HTTP helper, between the entry and it.
 * CONTRIBUTING.md's code map is this table, written by this test (UPDATE_CODE_MAP=1) and checked
 * against it on every run, so it cannot undercount.
 */
const context = useSimulator();
const session = new Session();
const CONTRIBUTING = join(repoRoot, 'CONTRIBUTING.md');
const START = '<!-- code-map:start -->';
const END = '<!-- code-map:end -->';

interface Measure {
	files: string[];
	/** Package frames strictly between the entry and n8n's HTTP helper; undefined for an answer. */
	frames?: string[];
}

const inPackage = (file: string) => {
	const path = relative(repoRoot, file.replace(/^file:\/\//, ''))
		.split(sep)
		.join('/');
	return /^(nodes|credentials)\//.test(path) ? path : undefined;
};

/** The package's files whose functions ran since the last call (taking precise coverage resets it). */
async function filesRun(): Promise<string[]> {
	const { result } = await session.post('Profiler.takePreciseCoverage');
	const files = result.flatMap((script) => {
		const path = inPackage(script.url);
		const ran = script.functions.some(
			({ functionName, ranges }) =>
				ranges[0].count > 0 &&
				// The module's own body, which ran when it was loaded.
				!(functionName === '' && ranges[0].startOffset === 0) &&
				!(path?.endsWith('/index.ts') && functionName === 'get'),
		);
		return path && ran ? [path] : [];
	});
	return [...new Set(files)].sort();
}

/** The package's frames on the current stack, outermost first, as `file function`. */
function packageFrames(): string[] {
	const limit = Error.stackTraceLimit;
	Error.stackTraceLimit = Infinity;
	const stack = new Error().stack ?? '';
	Error.stackTraceLimit = limit;
	return stack
		.split('\n')
		.flatMap((line) => {
			const match = /^\s+at (?:async )?(?:(.+?) \()?(.+?):\d+:\d+\)?$/.exec(line);
			const path = match && inPackage(match[2]);
			return path ? [`${path} ${match[1] ?? '<anonymous>'}`] : [];
		})
		.reverse();
}

type Entry = (...args: never[]) => Promise<unknown>;

/**
 * Runs `run` with `owner[method]` (the node's entry) measured: from its start to the first HTTP
 * call, or to its return when `to` is 'answer'.
 */
async function measurePath(
	owner: object,
	method: string,
	to: 'http' | 'answer',
	run: () => Promise<void>,
): Promise<Measure> {
	let measure: Measure | undefined;
	const entry = (owner as Record<string, Entry>)[method];
	const entrySpy = jest
		.spyOn(owner as Record<string, Entry>, method)
		.mockImplementation(async function (this: unknown, ...args: never[]) {
			await filesRun();
			const result = await entry.apply(this, args);
			if (to === 'answer') measure ??= { files: await filesRun() };
			return result;
		});
	const authenticate = HarnessCredentialsHelper.prototype.authenticate;
	const httpSpy = jest
		.spyOn(HarnessCredentialsHelper.prototype, 'authenticate')
		.mockImplementation(async function (this: HarnessCredentialsHelper, ...args) {
			if (to === 'http' && !measure) {
				const frames = packageFrames().slice(1);
				measure = { frames, files: await filesRun() };
			}
			return await authenticate.apply(this, args);
		});
	try {
		await run();
	} finally {
		entrySpy.mockRestore();
		httpSpy.mockRestore();
	}
	if (!measure)
		throw new Error(`The path never reached its ${to === 'http' ? 'HTTP call' : 'answer'}`);
	return measure;
}

const addParameters = (extra: IDataObject = {}) => ({
	type: 'n8n-nodes-review-scraping.reviewScraper',
	parameters: {
		resource: 'profile',
		operation: 'add',
		url: 'https://reviews.example.com/biz/path',
		...extra,
	},
});

const triggerNode = (name: string, node: INodeType, parameters: INodeParameters, hook: string) =>
	triggerHarness({
		node: 'Trigger',
		nodes: [{ name: 'Trigger', type: `${PREFIX}${name}`, parameters, webhookId: hook }],
		nodeTypes: { [`${PREFIX}${name}`]: node },
		credentialTypes,
		credentials: credentialsFor(context.sim),
	});
const PREFIX = 'n8n-nodes-review-scraping.';

interface Path {
	name: string;
	/** The bounds where one is set: files, and frames to the HTTP call. */
	bound?: { files: number; frames?: number };
	measure(): Promise<Measure>;
}

const paths: Path[] = [
	{
		name: 'Review Scraper → Profile → Add',
		measure: () =>
			measurePath(ReviewScraper.prototype, 'execute', 'http', async () => {
				const run = await runNode(
					context.sim,
					addParameters({ callback: 'https://hooks.example.com/webhook/reviews' }),
				);
				expect(run.status).toBe('success');
			}),
	},
	{
		name: 'Review Scraper → Profile → Add with Wait for Completion',
		// Bound 10 not met without merging concerns: see the code map's note. host/internals.ts came
		// onto the path (the wait reaches n8n's internals through it) and toolAnswer.ts went off it
		// (the wait asks host/ how n8n runs the node).
		bound: { files: 13, frames: 4 },
		measure: async () => {
			const receiver = await startReceiver();
			try {
				return await measurePath(ReviewScraper.prototype, 'execute', 'http', async () => {
					const run = await runNode(context.sim, addParameters({ waitForCompletion: true }), [{}], {
						baseUrl: receiver.url,
					});
					expect(run.status).toBe('waiting');
				});
			} finally {
				await receiver.close();
			}
		},
	},
	{
		name: 'Review Scraper → Profile → Add with Wait for Completion, the resume, to its answer',
		measure: async () => {
			const receiver = await startReceiver();
			const waiting = await runNode(
				context.sim,
				{ id: 'path-node', ...addParameters({ waitForCompletion: true }) },
				[{}],
				{ baseUrl: receiver.url },
			);
			await context.sim.waitForDeliveries(1, 5000);
			await receiver.close();
			return await measurePath(ReviewScraper.prototype, 'webhook', 'answer', async () => {
				const resumed = await waiting.resume({
					body: receiver.received[0].body,
					path: 'path-node',
				});
				expect(resumed.status).toBe('success');
			});
		},
	},
	{
		name: 'Review Scraper → Profile → Add Many',
		measure: () =>
			measurePath(ReviewScraper.prototype, 'execute', 'http', async () => {
				const run = await runNode(
					context.sim,
					addParameters({
						operation: 'addMany',
						url: '={{ $json.url }}',
						callback: 'https://hooks.example.com/webhook/reviews',
					}),
					[
						{ url: 'https://reviews.example.com/biz/1' },
						{ url: 'https://reviews.example.com/biz/2' },
					],
				);
				expect(run.status).toBe('success');
			}),
	},
	{
		name: 'Scraping Scheduler → Schedule → Create',
		// Bound 10 not met without merging concerns: see the code map's note.
		bound: { files: 12, frames: 4 },
		measure: () =>
			measurePath(ScrapingScheduler.prototype, 'execute', 'http', async () => {
				const run = await runNode(context.sim, {
					type: 'n8n-nodes-review-scraping.scrapingScheduler',
					typeVersion: 1,
					parameters: {
						resource: 'schedule',
						operation: 'create',
						service: 'rsapi',
						endpoint: 'add',
						frequency: 'daily',
						scheduleName: 'Nightly',
						queryParameters: {
							parameter: [
								{ name: 'url', value: 'https://reviews.example.com/biz/path' },
								{ name: 'callback', value: 'https://hooks.example.com/webhook/reviews' },
							],
						},
					},
				});
				expect(run.status).toBe('success');
			}),
	},
	{
		name: 'Recurring Reviews Trigger, activation',
		measure: async () => {
			const node = new ScheduledScrapeTrigger();
			const parameters = {
				collect: 'profile',
				frequency: 'daily',
				url: 'https://reviews.example.com/biz/path',
			};
			const trigger = triggerNode('scheduledScrapeTrigger', node, parameters, 'path-recurring');
			return await measurePath(node.webhookMethods.default, 'create', 'http', async () => {
				expect(await trigger.lifecycle('create')).toBe(true);
			});
		},
	},
	{
		name: 'Scraping Callback Trigger, a delivery, to its answer',
		bound: { files: 8 },
		measure: async () => {
			const node = new ScrapingCallbackTrigger();
			const trigger = triggerNode('scrapingCallbackTrigger', node, {}, 'path-callback');
			return await measurePath(ScrapingCallbackTrigger.prototype, 'webhook', 'answer', async () => {
				const { response } = await trigger.receive({
					body: { job_id: 'path-1', crawl_status: 'complete', reviews: [{ review_id: 'a' }] },
				});
				expect(response.workflowData?.[0][0].json).toMatchObject({ kind: 'reviewJob' });
			});
		},
	},
];

function codeMap(measured: Array<{ path: Path; measure: Measure }>): string {
	const short = (file: string) => `\`${file.replace(/^nodes\//, '')}\``;
	const rows = measured.map(
		({ path, measure }) =>
			`| ${path.name} | ${measure.files.length} | ${measure.frames ? measure.frames.length : '–'} | ${measure.files.map(short).join(', ')} |`,
	);
	return [
		START,
		'<!-- Written by test/engine/paths.test.ts (UPDATE_CODE_MAP=1 npx jest test/engine/paths.test.ts --selectProjects engine); checked by it on every run. -->',
		'',
		'| Path | Files | Frames | Files whose code runs on the way (under `nodes/`) |',
		'|---|---|---|---|',
		...rows,
		'',
		END,
	].join('\n');
}

beforeAll(async () => {
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
});
afterAll(async () => {
	await session.post('Profiler.stopPreciseCoverage');
	session.disconnect();
});

describe('the way from a node to its HTTP call', () => {
	const measured: Array<{ path: Path; measure: Measure }> = [];

	it.each(paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
		const measure = await path.measure();
		measured.push({ path, measure });
		process.stdout.write(
			[
				`${path.name}: ${measure.files.length} files`,
				...measure.files.map((file) => `  ${file}`),
				...(measure.frames
					? [`  ${measure.frames.length} frames:`, ...measure.frames.map((frame) => `    ${frame}`)]
					: []),
			].join('\n') + '\n',
		);
		expect(measure.files.length).toBeGreaterThan(1);
		if (path.bound) {
			expect(measure.files.length).toBeLessThanOrEqual(path.bound.files);
			if (path.bound.frames !== undefined) {
				expect(measure.frames?.length).toBeLessThanOrEqual(path.bound.frames);
			}
		}
	});

	it("is CONTRIBUTING.md's code map", () => {
		expect(measured.map(({ path }) => path.name)).toEqual(paths.map(({ name }) => name));
		const document = readFileSync(CONTRIBUTING, 'utf8');
		const from = document.indexOf(START);
		const to = document.indexOf(END);
		expect(from).toBeGreaterThan(-1);
		expect(to).toBeGreaterThan(from);
		const table = codeMap(measured);
		if (process.env.UPDATE_CODE_MAP === '1') {
			writeFileSync(
				CONTRIBUTING,
				document.slice(0, from) + table + document.slice(to + END.length),
			);
			return;
		}
		expect(document.slice(from, to + END.length)).toBe(table);
	});
});
