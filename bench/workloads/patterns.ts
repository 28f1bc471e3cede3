import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { WorkflowNode } from '../../test/e2e/harness/client';
import { dataTableRows, dropDataTable } from '../../test/e2e/harness/dataTables';
import { n8nVersion } from '../../test/e2e/harness/paths';
import { chain, splitOutNode } from '../../test/e2e/harness/workflows';
import { sqliteStore, type ExecutionRow } from '../lib/database';
import {
	CLOCK_COMPRESSION,
	JOB_MS,
	patternCells,
	PATTERN_NAME,
	patternsFile,
	patternsPage,
	renderPatternsPage,
	SIMULATED_JOB_MINUTES,
	type PatternMeasure,
	type PatternsFile,
} from '../lib/patternsTable';
import type { BenchContext, BenchResult, Row } from '../lib/result';
import { log } from '../lib/rounds';
import {
	expectOk,
	packageNode,
	postWhenRegistered,
	saveSettings,
	webhookTrigger,
} from '../lib/workflows';

const ADD_PATH = '/api/v2/profiles/add';
const ADD_BULK_PATH = '/api/v2/profiles/add_bulk';
const TABLE = 'bench_reviews';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function loopWorkflow(credential: { id: string; name: string }, urlPath: string) {
	const webhook = webhookTrigger(urlPath, 'onReceived');
	const split = splitOutNode('body.profiles');
	const loop: WorkflowNode = {
		id: randomUUID(),
		name: 'Loop Over Items',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [0, 0],
		parameters: { batchSize: 1, options: {} },
	};
	const add = packageNode(
		'reviewScraper',
		{
			resource: 'profile',
			operation: 'add',
			url: '={{ $json.url }}',
			additionalFields: { blocks: 25 },
			waitForCompletion: true,
		},
		{ reviewScraperApi: credential },
		'Review Scraper',
	);
	const link = (node: string) => [{ node, type: 'main', index: 0 }];
	return {
		nodes: [webhook, split, loop, add],
		connections: {
			[webhook.name]: { main: [link(split.name)] },
			[split.name]: { main: [link(loop.name)] },
			// Output 0 is "done", output 1 "loop".
			[loop.name]: { main: [[], link(add.name)] },
			[add.name]: { main: [link(loop.name)] },
		},
	};
}

function triggerWorkflow() {
	const trigger: WorkflowNode = {
		id: randomUUID(),
		name: 'Scraping Callback Trigger',
		type: 'n8n-nodes-review-scraping.scrapingCallbackTrigger',
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { kinds: ['reviewJob'], requireSecret: false, options: {} },
	};
	const row: WorkflowNode = {
		id: randomUUID(),
		name: 'Review Job Row',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [0, 0],
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: [
					{
						id: randomUUID(),
						name: 'job_id',
						type: 'number',
						value: '={{ $json.payload.job_id }}',
					},
					{
						id: randomUUID(),
						name: 'profile',
						type: 'string',
						value: '={{ $json.payload.source_url }}',
					},
					{
						id: randomUUID(),
						name: 'review_count',
						type: 'number',
						value: '={{ $json.payload.reviews.length }}',
					},
				],
			},
			options: {},
		},
	};
	const save: WorkflowNode = {
		id: randomUUID(),
		name: 'Save to Data Table',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1.1,
		position: [0, 0],
		parameters: {
			dataTableId: { __rl: true, mode: 'name', value: TABLE },
			columns: {
				mappingMode: 'autoMapInputData',
				value: {},
				matchingColumns: [],
				schema: [],
				attemptToConvertTypes: false,
				convertFieldsToString: false,
			},
			options: {},
		},
	};
	return { trigger, workflow: chain([trigger, row, save]) };
}

async function until<T>(timeoutMs: number, check: () => T | undefined): Promise<T | undefined> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = check();
		if (found !== undefined) return found;
		if (Date.now() > deadline) return undefined;
		await sleep(500);
	}
}

const ended = (rows: ExecutionRow[]) =>
	rows.every((e) => !['new', 'running', 'waiting'].includes(e.status));

/**
 * Which pattern for how many profiles (issue 48): the same profiles collected one after the other
 * in one execution, and submitted at once with their results received by the trigger. Both at
 * the service's rate limit with the credentials' default pacing, as a user runs them.
 */
export async function patterns(context: BenchContext): Promise<BenchResult> {
	const { env, quick } = context;
	const { client, simulator } = env;
	const credential = env.limitedCredentials.reviewScraperApi;
	const sizes = quick ? [1, 5] : [1, 20, 1000];
	// The loop's time grows with the profiles; Add Many's should not, so its bound is short.
	const bounds = { loop: quick ? 120_000 : 20 * 60_000, addMany: quick ? 60_000 : 5 * 60_000 };
	const store = sqliteStore(env.instance.userFolder);

	const loopPath = `bench-patterns-loop-${randomUUID()}`;
	const { id: loopId } = await client.createWorkflow({
		name: 'bench patterns: loop with Wait for Completion',
		...loopWorkflow(credential, loopPath),
		settings: saveSettings('all'),
	});
	await client.activate(loopId);

	await dropDataTable(client, TABLE);
	await client.api('POST', '/data-tables', {
		name: TABLE,
		columns: [
			{ name: 'job_id', type: 'number' },
			{ name: 'profile', type: 'string' },
			{ name: 'review_count', type: 'number' },
		],
	});
	const receiver = triggerWorkflow();
	const { id: triggerId } = await client.createWorkflow({
		name: 'bench patterns: Scraping Callback Trigger → Data Table',
		...receiver.workflow,
		settings: saveSettings('all'),
	});
	await client.activate(triggerId);
	const callbackUrl = `${env.instance.url}/webhook/${receiver.trigger.webhookId}/callback`;
	const addManyPath = `bench-patterns-add-many-${randomUUID()}`;
	const { id: addManyId } = await client.createWorkflow({
		name: 'bench patterns: Add Many',
		...chain([
			webhookTrigger(addManyPath, 'onReceived'),
			{
				...packageNode(
					'reviewScraper',
					{
						resource: 'profile',
						operation: 'addMany',
						inputMode: 'listField',
						listField: 'body.profiles',
					},
					{ reviewScraperApi: credential },
					'Review Scraper',
				),
				typeVersion: 1.1,
			},
		]),
		settings: saveSettings('all'),
	});
	await client.activate(addManyId);
	await sleep(2000);

	const measures: PatternMeasure[] = [];
	try {
		for (const profiles of sizes) {
			for (const pattern of ['loop', 'addMany'] as const) {
				simulator.reset();
				const boundMs = bounds[pattern];
				// The service's retry policy on a real clock (a refused callback would come 2 h later,
				// so it shows as missing) and a sender that waits for each answer, 16 at a time: the
				// jobs of one Add Many call all end at the same moment here, and a burst of that size
				// is the waiting bench's subject, not this one's.
				simulator.configure({
					completionDelayMs: JOB_MS,
					rateLimit: { review: 10 },
					callbackRetry: { policy: 'service' },
					timeScale: 1,
					callbackConcurrency: 16,
				});
				const workflowIds = pattern === 'loop' ? [loopId] : [addManyId, triggerId];
				const earlier = new Set(workflowIds.flatMap((id) => store.executions(id).map((e) => e.id)));
				const mine = () =>
					workflowIds.flatMap((id) => store.executions(id).filter((e) => !earlier.has(e.id)));
				const list = Array.from({ length: profiles }, (_, i) => ({
					url: `https://www.example.com/biz/pattern-${pattern}-${profiles}-${i}`,
					blocks: 25,
					...(pattern === 'addMany' ? { callback: callbackUrl } : {}),
				}));
				const started = Date.now();
				const url = `${env.instance.url}/webhook/${pattern === 'loop' ? loopPath : addManyPath}`;
				expectOk(await postWhenRegistered(url, { profiles: list }), `${pattern} start`);
				const expected = pattern === 'loop' ? 1 : 1 + profiles;
				const rows = await until(boundMs, () => {
					const found = mine();
					return found.length === expected && ended(found) ? found : undefined;
				});
				const requests = simulator
					.requests()
					.filter((r) => r.path === (pattern === 'loop' ? ADD_PATH : ADD_BULK_PATH)).length;
				const deliveries = simulator.deliveries().filter((d) => d.state === 'delivered').length;
				const failed = rows?.filter((e) => e.status !== 'success') ?? [];
				if (failed.length)
					throw new Error(`${pattern}, ${profiles}: ${failed.length} executions failed`);
				const measure: PatternMeasure = {
					pattern,
					profiles,
					resultsMs: rows ? Math.max(...rows.map((e) => e.stoppedAt ?? 0)) - started : null,
					results: deliveries,
					executions: rows?.length ?? mine().length,
					// Tries the rate limit refused and the node sent again are requests too.
					requests,
					boundMs,
				};
				if (pattern === 'addMany' && rows) {
					const saved = (await dataTableRows(client, TABLE)).filter((r) =>
						String(r.profile).includes(`pattern-addMany-${profiles}-`),
					);
					if (saved.length !== profiles) {
						throw new Error(
							`Add Many, ${profiles}: ${saved.length} rows in the data table (last: ${JSON.stringify((await dataTableRows(client, TABLE)).slice(-2))})`,
						);
					}
				}
				log(
					`  ${profiles} profiles, ${pattern}: ${measure.resultsMs === null ? `stopped at ${boundMs / 1000} s with ${deliveries} results` : `${(measure.resultsMs / 1000).toFixed(1)} s`}, ${measure.executions} executions, ${requests} requests`,
				);
				measures.push(measure);
				if (!rows) {
					// Stop what is still waiting so it does not load the next measurements.
					await client.deactivate(loopId).catch(() => undefined);
					simulator.reset();
				}
			}
		}
	} finally {
		store.close();
		for (const id of [loopId, addManyId, triggerId])
			await client.deactivate(id).catch(() => undefined);
		simulator.reset();
	}

	const file: PatternsFile = {
		measuredAt: new Date().toISOString(),
		command: quick ? 'npm run bench:quick' : 'npm run bench',
		n8n: n8nVersion,
		simulatedJobMinutes: SIMULATED_JOB_MINUTES,
		clockCompression: CLOCK_COMPRESSION,
		measures,
	};
	if (!quick) writePatterns(file);
	const rows: Row[] = measures.map((m) => ({
		measure: `${m.profiles.toLocaleString('en-US')} profiles: ${PATTERN_NAME[m.pattern]}`,
		a: { label: 'time to all results (jobs of 5 min)', value: patternCells(m).time },
		b: {
			label: 'n8n and the nodes; executions; requests',
			value: `${patternCells(m).own}; ${m.executions}; ${m.requests}`,
		},
		met: null,
	}));
	return {
		id: 'patterns',
		title: `Many profiles: a loop that waits, or Add Many and the trigger (jobs of ${SIMULATED_JOB_MINUTES} min)`,
		params: { sizes, jobMs: JOB_MS, clockCompression: CLOCK_COMPRESSION, bounds },
		rows,
		notes: [
			`Only the jobs run on the compressed clock (a ${SIMULATED_JOB_MINUTES}-minute job takes ${JOB_MS} ms here); n8n's and the nodes' time is real and added as measured. The service at its rate limit (10 per second), the credentials at their default pacing. ${quick ? '' : `Written to docs/results/patterns.json and the table in docs/many-profiles.md.`}`,
		],
		raw: { measures },
	};
}

function writePatterns(file: PatternsFile) {
	mkdirSync(path.dirname(patternsFile), { recursive: true });
	writeFileSync(patternsFile, `${JSON.stringify(file, null, '\t')}\n`);
	writeFileSync(patternsPage, renderPatternsPage(readFileSync(patternsPage, 'utf8'), file));
}
