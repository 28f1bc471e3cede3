import { randomUUID } from 'node:crypto';

import { countRequests } from '../lib/probe';
import { cell, median, ratioCell, type BenchContext, type BenchResult } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import {
	deploy,
	expectOk,
	packageNode,
	post,
	postWhenRegistered,
	splitOutNode,
	webhookTrigger,
} from '../lib/workflows';
import { profiles } from './per-item';

const BATCH_SIZE = 100;

interface Sample {
	ms: number;
	requests: number;
}

/** Add Many (bulk requests) against Add (one request per item) for the same profiles. */
export async function bulk({ env, quick }: BenchContext): Promise<BenchResult> {
	const items = quick ? 1000 : 10_000;
	const rounds = quick ? 2 : 3;
	const { client, simulator, credentials } = env;
	const reviewScraperApi = credentials.reviewScraperApi;

	const workflow = async (operation: 'add' | 'addMany') => {
		const path = `bench-bulk-${operation}`;
		return await deploy(
			client,
			`bench bulk: ${operation}`,
			webhookTrigger(path, 'lastNode'),
			[
				splitOutNode('body.profiles'),
				packageNode(
					'reviewScraper',
					{
						resource: 'profile',
						operation,
						url: '={{ $json.url }}',
						...(operation === 'addMany' ? { options: { batchSize: BATCH_SIZE } } : {}),
					},
					{ reviewScraperApi },
					'Review Scraper',
				),
			],
			'none',
			path,
		);
	};
	// What n8n spends on the items before any node of ours runs: the webhook, Split Out and one
	// `{{ $json.url }}` per item, as Add Many reads it. Add Many cannot be faster than this.
	const floorPath = 'bench-bulk-floor';
	const floor = await deploy(
		client,
		'bench bulk: n8n floor',
		webhookTrigger(floorPath, 'lastNode'),
		[splitOutNode('body.profiles'), urlSetNode()],
		'none',
		floorPath,
	);
	const many = await workflow('addMany');
	const single = await workflow('add');
	for (const deployed of [floor, many, single]) {
		expectOk(await postWhenRegistered(deployed.url, profiles(3, 'warm')), 'bulk warm-up');
	}

	const body = profiles(items, 'bulk');
	const run = (url: string, path: string, what: string) => async (): Promise<Sample> => {
		simulator.reset();
		const posted = expectOk(await post(url, body), what);
		const requests = countRequests(simulator, path);
		const jobs = simulator.state.reviewJobs.size;
		if (jobs !== items) throw new Error(`${what}: ${jobs} jobs queued for ${items} items`);
		return { ms: posted.ms, requests };
	};
	log(`bulk: ${items} profiles, batch ${BATCH_SIZE}, ${rounds} rounds`);
	const runFloor = async (): Promise<Sample> => {
		const posted = expectOk(await post(floor.url, body), 'floor');
		return { ms: posted.ms, requests: 0 };
	};
	const [manySamples, singleSamples, floorSamples] = await alternate(
		rounds,
		[
			{ name: 'Add Many', run: run(many.url, '/api/v2/profiles/add_bulk', 'Add Many') },
			{ name: 'Add', run: run(single.url, '/api/v2/profiles/add', 'Add') },
			{ name: 'floor', run: runFloor },
		],
		(s) => `${Math.round(s.ms)} ms, ${s.requests} requests`,
	);
	simulator.reset();

	const expectedRequests = Math.ceil(items / BATCH_SIZE);
	const manyRequests = Math.max(...manySamples.map((s) => s.requests));
	const speedups = pairwise(manySamples, singleSamples, (a, b) => b.ms / a.ms);
	const floorShares = pairwise(floorSamples, manySamples, (f, m) => f.ms / m.ms);
	const bounds = pairwise(floorSamples, singleSamples, (f, a) => a.ms / f.ms);
	return {
		id: 'bulk',
		title: `Bulk: ${items.toLocaleString('en-US')} profiles, Add Many (batch ${BATCH_SIZE}) vs Add per item`,
		params: { items, batchSize: BATCH_SIZE, rounds, save: 'success: none' },
		rows: [
			{
				measure: 'requests sent',
				a: { label: 'Add Many', value: String(manyRequests) },
				b: { label: 'Add', value: String(Math.max(...singleSamples.map((s) => s.requests))) },
				goal: `⌈N/batch⌉ = ${expectedRequests}`,
				met: manySamples.every((s) => s.requests === expectedRequests),
			},
			{
				measure: 'wall time; ratio = speed-up (B/A)',
				a: cell(
					'Add Many',
					manySamples.map((s) => s.ms),
					'ms',
				),
				b: cell(
					'Add',
					singleSamples.map((s) => s.ms),
					'ms',
				),
				ratio: ratioCell(speedups),
				goal: '≥ 20× faster',
				met: median(speedups) >= 20,
			},
			{
				measure:
					'diagnosis: n8n alone (Split Out + Set of {{ $json.url }}); ratio = its share of Add Many',
				a: cell(
					'floor',
					floorSamples.map((s) => s.ms),
					'ms',
				),
				b: cell(
					'Add Many',
					manySamples.map((s) => s.ms),
					'ms',
				),
				ratio: ratioCell(floorShares),
				met: null,
			},
			{
				measure: 'diagnosis: speed-up bound; ratio = Add / floor',
				a: cell(
					'Add',
					singleSamples.map((s) => s.ms),
					'ms',
				),
				b: cell(
					'floor',
					floorSamples.map((s) => s.ms),
					'ms',
				),
				ratio: ratioCell(bounds),
				met: null,
			},
		],
		notes: [
			'The floor workflow does what Add Many cannot avoid: receive the body, split it into items and evaluate the URL expression once per item. Add Many can be at most "Add / floor" times faster than Add.',
		],
		raw: { manySamples, singleSamples, floorSamples, speedups, floorShares, bounds },
	};
}

/** n8n's Set node evaluating the same expression Add Many reads for each item. */
function urlSetNode() {
	return {
		id: randomUUID(),
		name: 'Set URL',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [0, 0] as [number, number],
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: [{ id: randomUUID(), name: 'url', value: '={{ $json.url }}', type: 'string' }],
			},
			options: {},
		},
	};
}
