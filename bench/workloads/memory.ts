import type { N8nClient } from '../../test/e2e/harness/client';
import { cell, median, ratioCell, type BenchContext, type BenchResult } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import { RssSampler, rssMb } from '../lib/rss';
import {
	deploy,
	expectOk,
	listAllExecutions,
	packageNode,
	postWhenRegistered,
	UNFINISHED,
	webhookTrigger,
	type Deployed,
} from '../lib/workflows';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
	startMb: number;
	peakMb: number;
	deltaMb: number;
	ms: number;
	source: string;
	callbackMiB: number;
}

async function errorCount(client: N8nClient, workflowId: string): Promise<number> {
	return (await listAllExecutions(client, workflowId)).filter((e) => e.status === 'error').length;
}

/**
 * One search through E-commerce Search with Wait for Completion: the simulator acknowledges, then
 * delivers every product in one callback, which resumes the execution. Done when the delivery was
 * accepted and the workflow has no unfinished execution left (successful ones are not saved).
 */
async function search(context: BenchContext, target: Deployed, products: number): Promise<number> {
	const { client, simulator } = context.env;
	simulator.reset();
	simulator.configure({ ecommerceResponse: 'ack', productCount: products, completionDelayMs: 500 });
	const errorsBefore = await errorCount(client, target.id);
	const started = performance.now();
	expectOk(await postWhenRegistered(target.url, { products }), 'search trigger');
	const [delivery] = await simulator.waitForDeliveries(1, 120_000);
	if (delivery.state !== 'delivered') {
		throw new Error(`callback not accepted: ${delivery.finalStatus ?? delivery.error}`);
	}
	const deadline = Date.now() + 120_000;
	for (;;) {
		const executions = await listAllExecutions(client, target.id);
		if (!executions.some((e) => UNFINISHED.includes(e.status))) break;
		if (Date.now() > deadline) throw new Error('the resumed execution did not finish');
		await sleep(50);
	}
	const elapsed = performance.now() - started;
	if ((await errorCount(client, target.id)) > errorsBefore) {
		throw new Error(`the search with ${products} products ended in an error`);
	}
	return elapsed;
}

/**
 * Peak RSS of the n8n process for one product search of many products, as one item per product
 * and as the envelope in one item. n8n is restarted before every measurement: a heap that grew in
 * the previous run would otherwise hide or inflate the next one's peak.
 */
export async function memory(context: BenchContext): Promise<BenchResult> {
	const { env, quick } = context;
	const products = quick ? 10_000 : 50_000;
	const rounds = quick ? 1 : 3;
	const { client, credentials } = env;

	const workflow = async (output: 'products' | 'envelope') => {
		const path = `bench-memory-${output}`;
		return await deploy(
			client,
			`bench memory: ${output}`,
			webhookTrigger(path, 'onReceived'),
			[
				packageNode(
					'ecommerceSearch',
					{
						resource: 'product',
						operation: 'search',
						keyword: 'bench',
						waitForCompletion: true,
						additionalFields: { limit: products },
						output,
					},
					{ scrapingApi: credentials.scrapingApi },
					'E-Commerce Search',
				),
			],
			'none',
			path,
		);
	};
	const split = await workflow('products');
	const envelope = await workflow('envelope');

	const run = (target: Deployed) => async (): Promise<Sample> => {
		const instance = await env.restart();
		// The first run of a fresh process loads and compiles code: not what is measured.
		await search(context, target, 10);
		await sleep(1000);
		const sampler = new RssSampler(instance.pid);
		const ms = await search(context, target, products);
		const { startMb, peakMb, source } = sampler.stop();
		const [delivery] = env.simulator.deliveries();
		const callbackMiB = JSON.stringify(delivery.payload).length / 2 ** 20;
		return { startMb, peakMb, deltaMb: peakMb - startMb, ms, source, callbackMiB };
	};
	log(`memory: ${products} products, ${rounds} rounds, n8n restarted before each`);
	const [splitSamples, envelopeSamples] = await alternate(
		rounds,
		[
			{ name: 'one item per product', run: run(split) },
			{ name: 'envelope as one item', run: run(envelope) },
		],
		(s) =>
			`peak ${Math.round(s.peakMb)} MB (idle ${Math.round(s.startMb)} MB, +${Math.round(s.deltaMb)}), ${Math.round(s.ms)} ms, ${s.source}`,
	);
	env.simulator.reset();
	log(`n8n RSS after the memory bench: ${Math.round(rssMb(env.instance.pid))} MB`);

	const ratios = pairwise(splitSamples, envelopeSamples, (a, b) => a.peakMb / b.peakMb);
	const deltaRatios = pairwise(splitSamples, envelopeSamples, (a, b) => a.deltaMb / b.deltaMb);
	return {
		id: 'memory',
		title: `Memory: product search of ${products.toLocaleString('en-US')} products (Wait for Completion)`,
		params: { products, rounds, save: 'success: none', payloadSizeMaxMiB: 256 },
		rows: [
			{
				measure: 'peak RSS of the n8n process; ratio A/B',
				a: cell(
					'split into items',
					splitSamples.map((s) => s.peakMb),
					'MB',
				),
				b: cell(
					'envelope, one item',
					envelopeSamples.map((s) => s.peakMb),
					'MB',
				),
				ratio: ratioCell(ratios),
				met: null,
			},
			{
				measure: 'peak above idle RSS',
				a: cell(
					'split into items',
					splitSamples.map((s) => s.deltaMb),
					'MB',
				),
				b: cell(
					'envelope, one item',
					envelopeSamples.map((s) => s.deltaMb),
					'MB',
				),
				ratio: ratioCell(deltaRatios),
				met: null,
			},
			{
				measure: 'trigger → resumed execution finished',
				a: cell(
					'split into items',
					splitSamples.map((s) => s.ms),
					'ms',
				),
				b: cell(
					'envelope, one item',
					envelopeSamples.map((s) => s.ms),
					'ms',
				),
				ratio: ratioCell(pairwise(splitSamples, envelopeSamples, (a, b) => a.ms / b.ms)),
				met: null,
			},
		],
		notes: [
			`The callback body is ${splitSamples[0]?.callbackMiB.toFixed(1)} MiB of JSON. Idle RSS before the run: ${Math.round(median(splitSamples.map((s) => s.startMb)))} MB (split) and ${Math.round(median(envelopeSamples.map((s) => s.startMb)))} MB (envelope) after a warm-up search of 10 products; peak from the kernel's high-water mark (${splitSamples[0]?.source}). The task runner is a separate process and not counted.`,
		],
		raw: { splitSamples, envelopeSamples },
	};
}
