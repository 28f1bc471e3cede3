/**
 * `npx tsx bench/workloads/digest.ts [--sizes=20,100] [--rounds=3]`: the trigger's content digest
 * as it was (a key-sorted deep copy, stringified whole) against the streaming one, on a review job
 * callback of each size, side by side. Pure Node, no n8n: not part of `npm run bench`. Every
 * measurement is a fresh child process (`--expose-gc`) that parses the body, as the trigger does,
 * then digests it once; its peak RSS above the parsed payload is the kernel's high-water mark
 * (VmHWM, reset just before the digest), its heap growth the change in V8's committed heap.
 * The streaming digest's peak is V8's young generation filling with short-lived pieces (it grows
 * to 16–64 MiB with the heap): pages a process that has just parsed the body has already touched.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { contentDigest } from '../../nodes/shared/incoming/trigger/recentDeliveries';
import { generateJobReviews } from '../../simulator/data';
import { cell, ratioCell } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import { RssSampler } from '../lib/rss';

const MIB = 2 ** 20;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (isPlainObject(value)) {
		const sorted: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) sorted[key] = canonical(value[key]);
		return sorted;
	}
	return value;
}

/** contentDigest before issue 37, kept here to be measured against. */
function previousContentDigest(payload: unknown): string {
	return createHash('sha256')
		.update(JSON.stringify(canonical(payload)) ?? '')
		.digest('hex')
		.slice(0, 32);
}

const VARIANTS = { previous: previousContentDigest, streaming: contentDigest };
type VariantName = keyof typeof VARIANTS;

interface Sample {
	digest: string;
	ms: number;
	/** Peak RSS above the RSS with the parsed payload in memory. */
	peakMb: number;
	heapGrowthMb: number;
	payloadMb: number;
	source: string;
}

/** A review job callback of at least `mib` MiB of JSON, the simulator's reviews in it. */
function buildBody(mib: number): { text: string; reviews: number } {
	const parts: string[] = [];
	let size = 1024;
	for (let offset = 0; size < mib * MIB; offset++) {
		for (const review of generateJobReviews('bench-digest', { blocks: 500 }, offset)) {
			const json = JSON.stringify(review);
			parts.push(json);
			size += Buffer.byteLength(json) + 1;
			if (size >= mib * MIB) break;
		}
	}
	const envelope = JSON.stringify({
		job_id: 1_000_000_001,
		success: true,
		status: 200,
		source_url: 'https://www.example.com/biz/bench-digest',
		external_identifier: 'bench-digest',
		meta_data: JSON.stringify({ origin: 'bench' }),
		review_count: parts.length,
		crawl_status: 'complete',
	});
	return {
		text: `${envelope.slice(0, -1)},"reviews":[${parts.join(',')}]}`,
		reviews: parts.length,
	};
}

function child(variant: VariantName, file: string): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('the child needs --expose-gc');
	const bytes = readFileSync(file);
	const payload: unknown = JSON.parse(bytes.toString('utf8'));
	gc();
	gc();
	const heapBefore = process.memoryUsage().heapTotal;
	const payloadMb = process.memoryUsage().heapUsed / MIB;
	const sampler = new RssSampler(process.pid);
	const started = performance.now();
	const digest = VARIANTS[variant](payload);
	const ms = performance.now() - started;
	const rss = sampler.stop();
	const sample: Sample = {
		digest,
		ms,
		peakMb: rss.peakMb - rss.startMb,
		heapGrowthMb: (process.memoryUsage().heapTotal - heapBefore) / MIB,
		payloadMb,
		source: rss.source,
	};
	process.stdout.write(JSON.stringify(sample));
}

function measure(variant: VariantName, file: string): Sample {
	const run = spawnSync(
		process.execPath,
		[...process.execArgv, '--expose-gc', __filename, `--child=${variant}`, `--file=${file}`],
		{ encoding: 'utf8', maxBuffer: MIB },
	);
	if (run.status !== 0) throw new Error(`${variant}: exit ${run.status}\n${run.stderr}`);
	return JSON.parse(run.stdout) as Sample;
}

async function main(argv: string[]): Promise<void> {
	const option = (name: string) =>
		argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
	const variant = option('child');
	if (variant) return child(variant as VariantName, option('file') ?? '');

	const sizes = (option('sizes') ?? '20,100').split(',').map(Number);
	const rounds = Number(option('rounds') ?? 3);
	const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-digest-'));
	const lines: string[] = [];
	try {
		for (const mib of sizes) {
			const body = buildBody(mib);
			const file = path.join(folder, `${mib}.json`);
			writeFileSync(file, body.text);
			const bodyMib = Buffer.byteLength(body.text) / MIB;
			log(`digest: ${bodyMib.toFixed(1)} MiB, ${body.reviews.toLocaleString('en-US')} reviews`);
			const names: VariantName[] = ['previous', 'streaming'];
			const [previous, streaming] = await alternate(
				rounds,
				names.map((name) => ({ name, run: () => Promise.resolve(measure(name, file)) })),
				(s) => `${Math.round(s.ms)} ms, +${Math.round(s.peakMb)} MB RSS (${s.source})`,
			);
			const digests = new Set([...previous, ...streaming].map((s) => s.digest));
			if (digests.size !== 1) throw new Error(`${mib} MiB: digests differ: ${[...digests]}`);
			const row = (
				measure: string,
				pick: (s: Sample) => number,
				unit: 'ms' | 'MB',
				newOverOld = true,
			) => {
				const a = cell('previous', previous.map(pick), unit);
				const b = cell('streaming', streaming.map(pick), unit);
				const ratio = newOverOld
					? ratioCell(pairwise(streaming, previous, (x, y) => pick(x) / pick(y)))
					: '';
				return `| ${mib} MiB | ${measure} | ${a.value} | ${b.value} | ${ratio} |`;
			};
			lines.push(
				row('time', (s) => s.ms, 'ms'),
				row('peak RSS above the parsed payload', (s) => s.peakMb, 'MB'),
				row('V8 heap growth', (s) => s.heapGrowthMb, 'MB'),
				row('parsed payload (heap used)', (s) => s.payloadMb, 'MB', false),
			);
		}
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
	process.stdout.write(
		[
			`\nContent digest, ${rounds} rounds, a fresh process per measurement (median (min–max))\n`,
			'| body | measure | previous | streaming | streaming / previous |',
			'| --- | --- | --- | --- | --- |',
			...lines,
			'',
		].join('\n'),
	);
}

main(process.argv.slice(2)).catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
