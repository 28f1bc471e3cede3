import type { WorkflowNode } from '../../test/e2e/harness/client';
import { countRequests } from '../lib/probe';
import { type BenchContext, type BenchResult } from '../lib/result';
import { log } from '../lib/rounds';
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

const LIMIT = 10;
const BATCH_SIZE = 100;

interface Sample {
	profiles: number;
	ms: number;
	requests: number;
	refused429: number;
	failed: number;
	jobs: number;
}

/**
 * At the service's limit: the simulator accepts 10 requests per second per token, as production
 * does, and the credential is at its default Requests per Second (10). How close Add gets to the
 * limit, and what Add Many's ⌈N/100⌉ requests are worth there.
 */
export async function serviceLimit({ env, quick }: BenchContext): Promise<BenchResult> {
	const addCount = quick ? 50 : 1000;
	const compareCount = quick ? 50 : 2000;
	const { client, simulator, limitedCredentials } = env;
	const reviewScraperApi = limitedCredentials.reviewScraperApi;

	const scraper = (parameters: Record<string, unknown>): WorkflowNode => ({
		...packageNode(
			'reviewScraper',
			{ resource: 'profile', ...parameters },
			{ reviewScraperApi },
			'Review Scraper',
		),
		typeVersion: 1.1,
		// Failures stay on their items, so they are counted instead of stopping the run.
		onError: 'continueRegularOutput',
	});
	const deployChain = async (name: string, nodes: WorkflowNode[]) => {
		const path = `bench-service-limit-${name}`;
		return await deploy(
			client,
			`bench at the limit: ${name}`,
			webhookTrigger(path, 'lastNode', 'allEntries'),
			nodes,
			'none',
			path,
		);
	};
	const single = await deployChain('add', [
		splitOutNode('body.profiles'),
		scraper({ operation: 'add', url: '={{ $json.url }}' }),
	]);
	const many = await deployChain('add-many', [
		scraper({
			operation: 'addMany',
			inputMode: 'listField',
			listField: 'body.profiles',
			options: { batchSize: BATCH_SIZE },
		}),
	]);

	const run = async (url: string, path: string, count: number, what: string): Promise<Sample> => {
		simulator.reset();
		simulator.configure({ rateLimit: { review: LIMIT } });
		try {
			const posted = expectOk(
				await postWhenDatabaseReady(url, profiles(count, what), 600_000),
				what,
			);
			const output = JSON.parse(posted.text) as Array<Record<string, unknown>>;
			const sample: Sample = {
				profiles: count,
				ms: posted.ms,
				requests: countRequests(simulator, path),
				refused429: simulator.state.requestLog.filter((e) => e.responseStatus === 429).length,
				failed: output.filter((item) => item.success !== true).length,
				jobs: simulator.state.work.reviewJob.size,
			};
			log(
				`  ${what}: ${count} profiles in ${Math.round(sample.ms)} ms, ${sample.requests} requests, ${sample.refused429} answered 429, ${sample.failed} failed, ${sample.jobs} jobs`,
			);
			return sample;
		} finally {
			simulator.reset();
		}
	};

	// Warm-up without the limit: registers the webhooks and loads the nodes.
	for (const deployed of [single, many]) {
		expectOk(await postWhenRegistered(deployed.url, profiles(2, 'warm')), 'warm-up');
	}
	// The limiter's window must not hold the warm-up's requests.
	await new Promise((resolve) => setTimeout(resolve, 1500));
	log(`service limit: ${LIMIT} requests per second; Add ${addCount}, comparison ${compareCount}`);
	const add = await run(single.url, '/api/v2/profiles/add', addCount, 'add');
	const addForComparison =
		compareCount === addCount
			? add
			: await run(single.url, '/api/v2/profiles/add', compareCount, 'add-compare');
	const addMany = await run(many.url, '/api/v2/profiles/add_bulk', compareCount, 'add-many');

	const achieved = (add.profiles * 1000) / add.ms;
	const speedup = addForComparison.ms / addMany.ms;
	const seconds = (s: Sample) => `${(s.ms / 1000).toFixed(1)} s`;
	return {
		id: 'service-limit',
		title: `At the service's limit: ${LIMIT} requests per second, credential Requests per Second ${LIMIT}`,
		params: { limit: LIMIT, addCount, compareCount, batchSize: BATCH_SIZE, rounds: 1 },
		rows: [
			{
				measure: `Add, ${addCount.toLocaleString('en-US')} profiles: achieved rate; ratio = rate / limit`,
				a: {
					label: 'Add',
					value: `${achieved.toFixed(2)}/s (${seconds(add)}, ${add.requests} requests, ${add.refused429} answered 429)`,
				},
				b: { label: 'limit', value: `${LIMIT}/s` },
				ratio: `${(achieved / LIMIT).toFixed(2)}×`,
				goal: '≥ 0.9×',
				met: achieved / LIMIT >= 0.9,
			},
			{
				measure: 'Add: profiles failed, jobs queued',
				a: { label: 'Add', value: `${add.failed} failed, ${add.jobs} jobs` },
				goal: `0 failed, ${addCount} jobs`,
				met: add.failed === 0 && add.jobs === addCount,
			},
			{
				measure: `Add Many vs Add, ${compareCount.toLocaleString('en-US')} profiles; ratio = speed-up (B/A)`,
				a: {
					label: 'Add Many, from a list field',
					value: `${seconds(addMany)}, ${addMany.requests} requests, ${addMany.failed} failed`,
				},
				b: {
					label: 'Add',
					value: `${seconds(addForComparison)}, ${addForComparison.requests} requests, ${addForComparison.failed} failed`,
				},
				ratio: `${speedup.toFixed(1)}×`,
				goal: '≥ 50× faster',
				met:
					speedup >= 50 &&
					addMany.requests === Math.ceil(compareCount / BATCH_SIZE) &&
					addMany.failed === 0 &&
					addForComparison.failed === 0,
			},
		],
		notes: [
			`One run each: at ${LIMIT} requests per second the time is set by the limit, not by noise. ${compareCount === addCount ? 'The comparison reuses the Add run above.' : ''} A profile counts as failed when its output item is not success: true (Continue On Fail keeps failures on their items).`,
		],
		raw: { add, addForComparison, addMany },
	};
}
