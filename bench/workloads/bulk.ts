import { countRequests } from '../lib/probe';
import { cell, median, ratioCell, type BenchContext, type BenchResult } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import {
	deploy,
	expectOk,
	packageNode,
	postWhenDatabaseReady,
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

/**
 * Add Many reading profiles straight from the input (From a List Field: the webhook body itself;
 * Map Automatically: one item per profile) against Add per item with a `{{ $json.url }}`
 * expression, the way a user builds it without Add Many.
 */
export async function bulk({ env, quick }: BenchContext): Promise<BenchResult> {
	const items = quick ? 1000 : 10_000;
	const rounds = quick ? 2 : 3;
	const { client, simulator, credentials } = env;
	const reviewScraperApi = credentials.reviewScraperApi;

	const scraper = (parameters: Record<string, unknown>) => ({
		...packageNode(
			'reviewScraper',
			{ resource: 'profile', ...parameters },
			{ reviewScraperApi },
			'Review Scraper',
		),
		typeVersion: 1.1,
	});
	const deployChain = async (name: string, nodes: ReturnType<typeof scraper>[]) => {
		const path = `bench-bulk-${name}`;
		return await deploy(
			client,
			`bench bulk: ${name}`,
			webhookTrigger(path, 'lastNode'),
			nodes,
			'none',
			path,
		);
	};
	const fromList = await deployChain('list', [
		scraper({
			operation: 'addMany',
			inputMode: 'listField',
			listField: 'body.profiles',
			options: { batchSize: BATCH_SIZE },
		}),
	]);
	const autoMap = await deployChain('auto', [
		splitOutNode('body.profiles'),
		scraper({ operation: 'addMany', inputMode: 'autoMap', options: { batchSize: BATCH_SIZE } }),
	]);
	const single = await deployChain('add', [
		splitOutNode('body.profiles'),
		scraper({ operation: 'add', url: '={{ $json.url }}' }),
	]);
	// What n8n spends on the items before any node of ours runs when they are split into items:
	// the webhook and Split Out. Map Automatically cannot be faster than this.
	const floor = await deployChain('floor', [splitOutNode('body.profiles')]);
	for (const deployed of [fromList, autoMap, single, floor]) {
		expectOk(await postWhenRegistered(deployed.url, profiles(3, 'warm')), 'bulk warm-up');
	}

	const body = profiles(items, 'bulk');
	const run = (url: string, path: string, what: string) => async (): Promise<Sample> => {
		simulator.reset();
		const posted = expectOk(await postWhenDatabaseReady(url, body, 600_000), what);
		const requests = countRequests(simulator, path);
		const jobs = simulator.state.work.reviewJob.size;
		if (jobs !== items) throw new Error(`${what}: ${jobs} jobs queued for ${items} items`);
		return { ms: posted.ms, requests };
	};
	log(`bulk: ${items} profiles, batch ${BATCH_SIZE}, ${rounds} rounds`);
	const runFloor = async (): Promise<Sample> => {
		const posted = expectOk(await postWhenDatabaseReady(floor.url, body, 600_000), 'floor');
		return { ms: posted.ms, requests: 0 };
	};
	const BULK = '/api/v2/profiles/add_bulk';
	const [listSamples, autoSamples, singleSamples, floorSamples] = await alternate(
		rounds,
		[
			{ name: 'Add Many, from a list field', run: run(fromList.url, BULK, 'list field') },
			{ name: 'Add Many, map automatically', run: run(autoMap.url, BULK, 'map automatically') },
			{ name: 'Add', run: run(single.url, '/api/v2/profiles/add', 'Add') },
			{ name: 'floor', run: runFloor },
		],
		(s) => `${Math.round(s.ms)} ms, ${s.requests} requests`,
	);
	simulator.reset();

	const expectedRequests = Math.ceil(items / BATCH_SIZE);
	const speedups = (samples: Sample[]) => pairwise(samples, singleSamples, (a, b) => b.ms / a.ms);
	const listSpeedups = speedups(listSamples);
	const autoSpeedups = speedups(autoSamples);
	const floorShares = pairwise(floorSamples, autoSamples, (f, m) => f.ms / m.ms);
	const ms = (label: string, samples: Sample[]) =>
		cell(
			label,
			samples.map((s) => s.ms),
			'ms',
		);
	return {
		id: 'bulk',
		title: `Bulk: ${items.toLocaleString('en-US')} profiles, Add Many (batch ${BATCH_SIZE}) vs Add per item with an expression`,
		params: { items, batchSize: BATCH_SIZE, rounds, save: 'success: none', rateLimit: 'none' },
		rows: [
			{
				measure: 'requests sent',
				a: {
					label: 'Add Many (list field; map automatically)',
					value: `${Math.max(...listSamples.map((s) => s.requests))}; ${Math.max(...autoSamples.map((s) => s.requests))}`,
				},
				b: { label: 'Add', value: String(Math.max(...singleSamples.map((s) => s.requests))) },
				goal: `⌈N/batch⌉ = ${expectedRequests}`,
				met: [...listSamples, ...autoSamples].every((s) => s.requests === expectedRequests),
			},
			{
				measure: 'wall time, one webhook body; ratio = speed-up (B/A)',
				a: ms('Add Many, from a list field', listSamples),
				b: ms('Add', singleSamples),
				ratio: ratioCell(listSpeedups),
				goal: '≥ 20× faster',
				met: median(listSpeedups) >= 20,
			},
			{
				measure: 'wall time, one item per profile; ratio = speed-up (B/A)',
				a: ms('Add Many, map automatically', autoSamples),
				b: ms('Add', singleSamples),
				ratio: ratioCell(autoSpeedups),
				goal: '≥ 20× faster',
				met: median(autoSpeedups) >= 20,
			},
			{
				measure:
					'diagnosis: n8n alone (webhook + Split Out); ratio = its share of Map Automatically',
				a: ms('floor', floorSamples),
				b: ms('Add Many, map automatically', autoSamples),
				ratio: ratioCell(floorShares),
				met: null,
			},
		],
		notes: [
			'Add reads the URL with {{ $json.url }} per item (n8n evaluates each in its expression isolate); the Add Many modes read no expression. The floor workflow receives the body and splits it into items, which Map Automatically cannot avoid; From a List Field skips even that. The simulator has no rate limit here and the credential does not pace (Requests per Second 0), so only n8n and the nodes are timed.',
		],
		raw: { listSamples, autoSamples, singleSamples, floorSamples, listSpeedups, autoSpeedups },
	};
}
