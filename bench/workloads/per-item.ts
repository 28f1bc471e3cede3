import type { PairedContext } from '../lib/baseline';
import type { BenchEnvironment } from '../lib/instance';
import { pairedRun } from '../lib/paired';
import { ConcurrencyProbe, countRequests } from '../lib/probe';
import { cell, median, ratioCell, type BenchContext, type BenchResult } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import { formatSummary, summarize } from '../lib/stats';
import {
	deploy,
	expectOk,
	httpRequestNode,
	packageNode,
	postWhenDatabaseReady,
	postWhenRegistered,
	splitOutNode,
	webhookTrigger,
} from '../lib/workflows';

const ADD_PATH = '/api/v2/profiles/add';
const DIAGNOSIS_LATENCY_MS = 3;
const DIAGNOSIS_ROUNDS = 3;

export function profiles(count: number, tag: string): { profiles: Array<{ url: string }> } {
	return {
		profiles: Array.from({ length: count }, (_, i) => ({
			url: `https://www.example.com/biz/${tag}-${i}`,
		})),
	};
}

interface Sample {
	ms: number;
	requests: number;
	peakConcurrency: number;
}

/**
 * Deploys both workflows in one n8n, warms them up and checks that both send the same call;
 * `run` gives a timed run of either, which checks that it sent one request per item.
 */
async function setUp(env: BenchEnvironment, items: number) {
	const { client, simulator, credentials } = env;
	const credential = credentials.reviewScraperApi;

	const nodePath = 'bench-per-item-node';
	const node = await deploy(
		client,
		'bench per-item: Review Scraper',
		webhookTrigger(nodePath, 'lastNode'),
		[
			splitOutNode('body.profiles'),
			packageNode(
				'reviewScraper',
				{ resource: 'profile', operation: 'add', url: '={{ $json.url }}' },
				{ reviewScraperApi: credential },
				'Review Scraper',
			),
		],
		'none',
		nodePath,
	);
	const httpPath = 'bench-per-item-http';
	const http = await deploy(
		client,
		'bench per-item: HTTP Request',
		webhookTrigger(httpPath, 'lastNode'),
		[
			splitOutNode('body.profiles'),
			httpRequestNode('reviewScraperApi', credential, {
				method: 'POST',
				url: `${simulator.urls.baseUrl}${ADD_PATH}`,
				sendQuery: true,
				specifyQuery: 'keypair',
				queryParameters: { parameters: [{ name: 'url', value: '={{ $json.url }}' }] },
			}),
		],
		'none',
		httpPath,
	);

	simulator.reset();
	// Warm-up (JIT, lazily loaded modules) and a check that both send the same call.
	expectOk(await postWhenRegistered(node.url, profiles(5, 'warm')), 'Review Scraper warm-up');
	const nodeRequest = simulator.requests().at(-1)!;
	simulator.reset();
	expectOk(await postWhenRegistered(http.url, profiles(5, 'warm')), 'HTTP Request warm-up');
	const httpRequest = simulator.requests().at(-1)!;
	const headerNames = (headers: Record<string, string>) => Object.keys(headers).sort();
	const headersCompared = {
		reviewScraper: headerNames(nodeRequest.headers),
		httpRequest: headerNames(httpRequest.headers),
		sameQuery: JSON.stringify(nodeRequest.query) === JSON.stringify(httpRequest.query),
		sameToken: nodeRequest.headers['spiderman-token'] === httpRequest.headers['spiderman-token'],
	};

	const probe = new ConcurrencyProbe(simulator);
	const body = profiles(items, 'bench');
	const run =
		(which: 'node' | 'http', latencyMs = 0) =>
		async (): Promise<Sample> => {
			const [url, what] =
				which === 'node' ? [node.url, 'Review Scraper'] : [http.url, 'HTTP Request'];
			simulator.reset();
			if (latencyMs > 0) {
				simulator.injectFault({ kind: 'slow', path: ADD_PATH, delayMs: latencyMs, times: items });
			}
			probe.reset();
			const posted = expectOk(await postWhenDatabaseReady(url, body, 600_000), what);
			const requests = countRequests(simulator, ADD_PATH);
			if (requests !== items) throw new Error(`${what}: ${requests} requests for ${items} items`);
			return { ms: posted.ms, requests, peakConcurrency: probe.peak };
		};
	const done = () => {
		probe.detach();
		simulator.reset();
	};
	return { run, headersCompared, done };
}

const size = (quick: boolean) => ({ items: quick ? 200 : 1000, rounds: quick ? 2 : 7 });

const describeSample = (s: Sample) =>
	`${Math.round(s.ms)} ms, ${s.requests} requests, peak ${s.peakConcurrency} in flight`;

/** Review Scraper → Profile → Add against the HTTP Request node sending the same calls. */
export async function perItemOverhead({ env, quick }: BenchContext): Promise<BenchResult> {
	const { items, rounds } = size(quick);
	const { run, headersCompared, done } = await setUp(env, items);
	log(`per-item overhead: ${items} items, ${rounds} rounds`);
	const [nodeSamples, httpSamples] = await alternate(
		rounds,
		[
			{ name: 'Review Scraper', run: run('node') },
			{ name: 'HTTP Request', run: run('http') },
		],
		describeSample,
	);

	// Diagnosis: with every answer held a little longer, a node that waits for each answer before
	// preparing the next item pays the whole delay per item; one that goes on meanwhile does not.
	let latency: { nodeSamples: Sample[]; httpSamples: Sample[]; ratios: number[] } | undefined;
	if (!quick) {
		log(
			`per-item overhead with +${DIAGNOSIS_LATENCY_MS} ms per request: ${DIAGNOSIS_ROUNDS} rounds`,
		);
		const [slowNode, slowHttp] = await alternate(
			DIAGNOSIS_ROUNDS,
			[
				{ name: 'Review Scraper', run: run('node', DIAGNOSIS_LATENCY_MS) },
				{ name: 'HTTP Request', run: run('http', DIAGNOSIS_LATENCY_MS) },
			],
			describeSample,
		);
		latency = {
			nodeSamples: slowNode,
			httpSamples: slowHttp,
			ratios: pairwise(slowNode, slowHttp, (a, b) => a.ms / b.ms),
		};
	}
	done();

	const ratios = pairwise(nodeSamples, httpSamples, (a, b) => a.ms / b.ms);
	const perItem = (samples: Sample[]) => samples.map((s) => (s.ms * 1000) / items);
	const nodePeak = Math.max(...nodeSamples.map((s) => s.peakConcurrency));
	const httpPeak = Math.max(...httpSamples.map((s) => s.peakConcurrency));
	return {
		id: 'per-item',
		title: `Per-item overhead: ${items.toLocaleString('en-US')} items, Profile → Add`,
		params: { items, rounds, save: 'success: none' },
		rows: [
			{
				measure: 'wall time (POST → last node done); ratio A/B',
				a: cell(
					'Review Scraper',
					nodeSamples.map((s) => s.ms),
					'ms',
				),
				b: cell(
					'HTTP Request',
					httpSamples.map((s) => s.ms),
					'ms',
				),
				ratio: ratioCell(ratios),
				goal: '≤ 1.05×',
				met: median(ratios) <= 1.05,
			},
			{
				measure: 'µs per item',
				a: cell('Review Scraper', perItem(nodeSamples), 'count'),
				b: cell('HTTP Request', perItem(httpSamples), 'count'),
				met: null,
			},
			{
				measure: 'requests in flight at the service (peak)',
				a: { label: 'Review Scraper', value: String(nodePeak) },
				b: { label: 'HTTP Request', value: String(httpPeak) },
				met: null,
			},
			...(latency
				? [
						{
							measure: `diagnosis: +${DIAGNOSIS_LATENCY_MS} ms per request; peak in flight`,
							a: {
								label: 'Review Scraper',
								value: `${formatSummary(summarize(latency.nodeSamples.map((s) => s.ms)), 'ms')}; ${Math.max(...latency.nodeSamples.map((s) => s.peakConcurrency))}`,
							},
							b: {
								label: 'HTTP Request',
								value: `${formatSummary(summarize(latency.httpSamples.map((s) => s.ms)), 'ms')}; ${Math.max(...latency.httpSamples.map((s) => s.peakConcurrency))}`,
							},
							ratio: ratioCell(latency.ratios),
							met: null,
						},
					]
				: []),
		],
		notes: [
			`Both sent ${items} POST ${ADD_PATH} per run, same query; header names — Review Scraper: ${headersCompared.reviewScraper.join(', ')}; HTTP Request: ${headersCompared.httpRequest.join(', ')}.`,
		],
		raw: { nodeSamples, httpSamples, ratios, headersCompared, latency },
	};
}

/** The same workflows on the working tree's build and the baseline's, side by side. */
export async function perItemPaired(context: PairedContext): Promise<BenchResult> {
	const { items, rounds } = size(context.quick);
	return await pairedRun(context, {
		id: 'per-item',
		title: `Per-item overhead: ${items.toLocaleString('en-US')} items, Profile → Add`,
		params: { items, save: 'success: none' },
		rounds,
		nodeName: 'Review Scraper',
		referenceName: 'HTTP Request',
		async setup(env) {
			const { run, headersCompared, done } = await setUp(env, items);
			return {
				node: run('node'),
				reference: run('http'),
				note: `one POST ${ADD_PATH} per item checked every run; header names of the Review Scraper's request: ${headersCompared.reviewScraper.join(', ')}; same query as HTTP Request: ${headersCompared.sameQuery ? 'yes' : 'no'}.`,
				done,
			};
		},
		ms: (s) => s.ms,
		describe: describeSample,
		ownRatio: { label: 'Review Scraper / HTTP Request', of: (node, http) => node.ms / http.ms },
	});
}
