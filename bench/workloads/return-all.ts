import type { Simulator } from '../../simulator/server';
import type { PairedContext } from '../lib/baseline';
import type { BenchEnvironment } from '../lib/instance';
import { pairedRun } from '../lib/paired';
import { ConcurrencyProbe } from '../lib/probe';
import { cell, median, ratioCell, type BenchContext, type BenchResult } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import {
	deploy,
	expectOk,
	httpRequestNode,
	packageNode,
	post,
	postWhenRegistered,
	splitOutNode,
	webhookTrigger,
} from '../lib/workflows';

const PAGES = 50;
const PER_PAGE = 100;
const LATENCY_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
	ms: number;
	items: number;
	requests: number;
	peakConcurrency: number;
}

/** Submits a photo search straight to the simulator and waits until its results are ready. */
async function completedPhotoSearch(simulator: Simulator): Promise<string> {
	const headers = { 'x-api-key': simulator.config.apiKey, 'content-type': 'application/json' };
	const res = await fetch(`${simulator.urls.photoScraperUrl}/v1/search`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ keyword: 'bench', callback_url: 'http://127.0.0.1:9/unused' }),
	});
	const { request_id: requestId } = (await res.json()) as { request_id: string };
	for (let i = 0; i < 100; i++) {
		const status = await fetch(`${simulator.urls.photoScraperUrl}/v1/requests/${requestId}`, {
			headers,
		});
		if (((await status.json()) as { status: string }).status === 'completed') return requestId;
		await sleep(50);
	}
	throw new Error(`photo search ${requestId} did not complete`);
}

/**
 * Deploys both workflows in one n8n over a completed photo search, counts their items in one
 * untimed run each and warms them up; `run` gives a timed run of either, which checks that it
 * sent as many requests as when counted.
 */
async function setUp(env: BenchEnvironment) {
	const { client, simulator, credentials } = env;
	simulator.reset();
	simulator.configure({ photoPostCount: PAGES * PER_PAGE, completionDelayMs: 10 });
	const requestId = await completedPhotoSearch(simulator);
	simulator.configure({ completionDelayMs: 3_600_000 });

	const deployPair = async (responseData: 'allEntries' | 'noData') => {
		const nodePath = `bench-return-all-node-${responseData}`;
		const node = await deploy(
			client,
			`bench Return All: Social Scraper (${responseData})`,
			webhookTrigger(nodePath, 'lastNode', responseData),
			[
				packageNode(
					'socialScraper',
					{
						resource: 'photoPost',
						operation: 'getResults',
						requestId,
						returnAll: true,
						options: { perPage: PER_PAGE },
					},
					{ scrapingApi: credentials.scrapingApi },
					'Social Scraper',
				),
			],
			'none',
			nodePath,
		);
		const httpPath = `bench-return-all-http-${responseData}`;
		const http = await deploy(
			client,
			`bench Return All: HTTP Request pagination (${responseData})`,
			webhookTrigger(httpPath, 'lastNode', responseData),
			[
				httpRequestNode('scrapingApi', credentials.scrapingApi, {
					method: 'GET',
					url: `${simulator.urls.photoScraperUrl}/v1/search/${requestId}`,
					sendQuery: true,
					specifyQuery: 'keypair',
					queryParameters: { parameters: [{ name: 'per_page', value: String(PER_PAGE) }] },
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: {
									parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
								},
								paginationCompleteWhen: 'other',
								completeExpression:
									'={{ $response.body.pagination.page >= $response.body.pagination.total_pages }}',
							},
						},
					},
				}),
				splitOutNode('results'),
			],
			'none',
			httpPath,
		);
		return { node, http };
	};
	// Serialising 5,000 items into the webhook's answer costs as much as a third of the paging
	// time and is not what is compared: timed runs answer nothing, untimed ones count the items.
	const checked = await deployPair('allEntries');
	const timed = await deployPair('noData');

	const expectedItems = PAGES * PER_PAGE;
	const withLatency = async (url: string, what: string, justActivated = false) => {
		simulator.clearRequests();
		simulator.clearFaults();
		simulator.injectFault({ kind: 'slow', api: 'photo', delayMs: LATENCY_MS, times: 10_000 });
		const posted = expectOk(await (justActivated ? postWhenRegistered : post)(url, {}), what);
		simulator.clearFaults();
		return { posted, requests: simulator.requests().length };
	};
	const counted: Record<string, { items: number; requests: number }> = {};
	for (const [url, what] of [
		[checked.node.url, 'Social Scraper'],
		[checked.http.url, 'HTTP Request'],
	] as const) {
		const { posted, requests } = await withLatency(url, `${what} (items counted)`, true);
		const items = (JSON.parse(posted.text) as unknown[]).length;
		if (items !== expectedItems)
			throw new Error(`${what}: ${items} items, expected ${expectedItems}`);
		counted[what] = { items, requests };
	}
	const probe = new ConcurrencyProbe(simulator);
	const run = (which: 'node' | 'http') => async (): Promise<Sample> => {
		const [url, what] =
			which === 'node' ? [timed.node.url, 'Social Scraper'] : [timed.http.url, 'HTTP Request'];
		probe.reset();
		const { posted, requests } = await withLatency(url, what);
		if (requests !== counted[what].requests) {
			throw new Error(`${what}: ${requests} requests, ${counted[what].requests} when counted`);
		}
		return { ms: posted.ms, items: counted[what].items, requests, peakConcurrency: probe.peak };
	};
	for (const [url, what] of [
		[timed.node.url, 'Social Scraper'],
		[timed.http.url, 'HTTP Request'],
	] as const) {
		expectOk(await postWhenRegistered(url, {}), `${what} warm-up`);
	}
	const done = () => {
		probe.detach();
		simulator.reset();
	};
	return { requestId, counted, run, done };
}

const describeSample = (s: Sample) =>
	`${Math.round(s.ms)} ms, ${s.requests} requests, peak ${s.peakConcurrency} in flight`;

/**
 * Social Scraper → Photo Post → Get Results with Return All, against the HTTP Request node's own
 * pagination (one page after the other) then Split Out, both with latency injected into every
 * request the service answers.
 */
export async function returnAll({ env, quick }: BenchContext): Promise<BenchResult> {
	const rounds = quick ? 2 : 7;
	const { requestId, counted, run, done } = await setUp(env);
	const expectedItems = PAGES * PER_PAGE;

	log(`Return All: ${PAGES} pages × ${PER_PAGE}, ${LATENCY_MS} ms per request, ${rounds} rounds`);
	const [nodeSamples, httpSamples] = await alternate(
		rounds,
		[
			{ name: 'Social Scraper', run: run('node') },
			{ name: 'HTTP Request', run: run('http') },
		],
		describeSample,
	);
	done();

	const speedups = pairwise(nodeSamples, httpSamples, (a, b) => b.ms / a.ms);
	// Requests that must wait for one another, each held LATENCY_MS: the speed-up with no n8n cost.
	const nodePeak = Math.max(...nodeSamples.map((s) => s.peakConcurrency));
	const nodeSteps = 2 + Math.ceil((PAGES - 1) / nodePeak);
	const latencyBound = PAGES / nodeSteps;
	const exact = Object.values(counted).every((c) => c.items === expectedItems);
	return {
		id: 'return-all',
		title: `Return All: ${PAGES} pages × ${PER_PAGE} posts, +${LATENCY_MS} ms per request`,
		params: {
			pages: PAGES,
			perPage: PER_PAGE,
			latencyMs: LATENCY_MS,
			rounds,
			save: 'success: none',
		},
		rows: [
			{
				measure: 'wall time; ratio = speed-up (B/A)',
				a: cell(
					'Social Scraper',
					nodeSamples.map((s) => s.ms),
					'ms',
				),
				b: cell(
					'HTTP Request paging',
					httpSamples.map((s) => s.ms),
					'ms',
				),
				ratio: ratioCell(speedups),
				goal: '≥ 3× faster',
				met: median(speedups) >= 3,
			},
			{
				measure: 'items out; requests; peak in flight',
				a: {
					label: 'Social Scraper',
					value: `${nodeSamples[0].items}; ${nodeSamples[0].requests}; ${Math.max(...nodeSamples.map((s) => s.peakConcurrency))}`,
				},
				b: {
					label: 'HTTP Request paging',
					value: `${httpSamples[0].items}; ${httpSamples[0].requests}; ${Math.max(...httpSamples.map((s) => s.peakConcurrency))}`,
				},
				goal: `exactly ${expectedItems}`,
				met: exact,
			},
		],
		notes: [
			'The node also reads the request status first (one more request); the HTTP Request workflow does not. ' +
				'Timed runs answer the webhook with no data; items were counted in one untimed run each that answers with all of them. ' +
				`Latency alone bounds the speed-up at ${latencyBound.toFixed(2)}×: the node waits out ${nodeSteps} round trips (status, page 1, then ${PAGES - 1} pages ${nodePeak} at a time), paging ${PAGES}.`,
		],
		raw: { requestId, nodeSamples, httpSamples, speedups, latencyBound },
	};
}

/** The same workflows on the working tree's build and the baseline's, side by side. */
export async function returnAllPaired(context: PairedContext): Promise<BenchResult> {
	return await pairedRun(context, {
		id: 'return-all',
		title: `Return All: ${PAGES} pages × ${PER_PAGE} posts, +${LATENCY_MS} ms per request`,
		params: { pages: PAGES, perPage: PER_PAGE, latencyMs: LATENCY_MS, save: 'success: none' },
		rounds: context.quick ? 2 : 7,
		nodeName: 'Social Scraper',
		referenceName: 'HTTP Request paging',
		async setup(env) {
			const { counted, run, done } = await setUp(env);
			const { items, requests } = counted['Social Scraper'];
			return {
				node: run('node'),
				reference: run('http'),
				note: `Social Scraper gave ${items} items in ${requests} requests when counted; every timed run checked to send as many.`,
				done,
			};
		},
		ms: (s) => s.ms,
		describe: describeSample,
		ownRatio: {
			label: 'speed-up, HTTP Request paging / Social Scraper',
			of: (node, http) => http.ms / node.ms,
		},
	});
}
