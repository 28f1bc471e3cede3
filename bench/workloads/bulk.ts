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
	const many = await workflow('addMany');
	const single = await workflow('add');
	for (const deployed of [many, single]) {
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
	const [manySamples, singleSamples] = await alternate(
		rounds,
		[
			{ name: 'Add Many', run: run(many.url, '/api/v2/profiles/add_bulk', 'Add Many') },
			{ name: 'Add', run: run(single.url, '/api/v2/profiles/add', 'Add') },
		],
		(s) => `${Math.round(s.ms)} ms, ${s.requests} requests`,
	);
	simulator.reset();

	const expectedRequests = Math.ceil(items / BATCH_SIZE);
	const manyRequests = Math.max(...manySamples.map((s) => s.requests));
	const speedups = pairwise(manySamples, singleSamples, (a, b) => b.ms / a.ms);
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
		],
		notes: [],
		raw: { manySamples, singleSamples, speedups },
	};
}
