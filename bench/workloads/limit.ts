import { Pool } from 'undici';

import { cell, ratioCell, type BenchContext, type BenchResult } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';

interface Sample {
	requests: number;
	ms: number;
	perSecond: number;
	failures: number;
}

/**
 * An HTTP load loop on loopback straight at the simulator: `concurrency` requests in flight until
 * `maxRequests` were answered or `maxMs` passed, whichever comes first.
 */
async function load(
	origin: string,
	path: string,
	token: string,
	concurrency: number,
	maxRequests: number,
	maxMs: number,
): Promise<Sample> {
	const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
	let sent = 0;
	let done = 0;
	let failures = 0;
	const started = performance.now();
	const deadline = started + maxMs;
	const worker = async () => {
		while (sent < maxRequests && performance.now() < deadline) {
			const n = sent++;
			const res = await pool.request({
				method: 'POST',
				path: `${path}?url=${encodeURIComponent(`https://www.example.com/biz/limit-${n}`)}`,
				headers: { 'spiderman-token': token },
			});
			await res.body.dump();
			if (res.statusCode !== 200) failures++;
			done++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	const ms = performance.now() - started;
	await pool.close();
	return { requests: done, ms, perSecond: (done * 1000) / ms, failures };
}

/** The simulator's own throughput on Profile → Add: the ceiling every other figure sits under. */
export async function simulatorLimit({ env, quick }: BenchContext): Promise<BenchResult> {
	const { simulator } = env;
	const maxRequests = quick ? 3000 : 20_000;
	const maxMs = quick ? 3000 : 10_000;
	const rounds = quick ? 2 : 5;
	const url = new URL(simulator.urls.baseUrl);
	const path = `${url.pathname}/api/v2/profiles/add`;
	const run = (concurrency: number) => async (): Promise<Sample> => {
		simulator.reset();
		const sample = await load(
			url.origin,
			path,
			simulator.config.token,
			concurrency,
			maxRequests,
			maxMs,
		);
		if (sample.failures) throw new Error(`${sample.failures} requests failed`);
		return sample;
	};
	log(`limit: up to ${maxRequests} requests or ${maxMs} ms per run, ${rounds} rounds`);
	const [one, eight] = await alternate(
		rounds,
		[
			{ name: 'concurrency 1', run: run(1) },
			{ name: 'concurrency 8', run: run(8) },
		],
		(s) => `${Math.round(s.perSecond)}/s (${s.requests} in ${Math.round(s.ms)} ms)`,
	);
	simulator.reset();
	return {
		id: 'limit',
		title: 'The limit: simulator alone (POST profiles/add on loopback)',
		params: { maxRequests, maxMs, rounds },
		rows: [
			{
				measure: 'requests per second; ratio A/B',
				a: cell(
					'1 in flight',
					one.map((s) => s.perSecond),
					'/s',
				),
				b: cell(
					'8 in flight',
					eight.map((s) => s.perSecond),
					'/s',
				),
				ratio: ratioCell(pairwise(one, eight, (a, b) => a.perSecond / b.perSecond)),
				met: null,
			},
		],
		notes: [
			'The load loop runs in the process that hosts the simulator, as in every other bench, so this is the ceiling of the whole in-process service side.',
		],
		raw: { one, eight },
	};
}
