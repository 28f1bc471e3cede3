import type { N8nClient } from '../../test/e2e/harness/client';
import { packageNode } from '../../test/e2e/harness/workflows';
import { generateJobReviews } from '../../simulator/data';
import { BENCH_N8N_ENV } from '../lib/instance';
import { cell, ratioCell, type BenchContext, type BenchResult, type Row } from '../lib/result';
import { alternate, log, pairwise } from '../lib/rounds';
import { RssSampler } from '../lib/rss';
import { deploy, UNFINISHED, webhookTrigger, type Deployed } from '../lib/workflows';

const MIB = 2 ** 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reviews generated per call of the simulator's generator (each call has its own ids and dates). */
const CHUNK = 500;
/** Ten digits from here on: the job id keeps its place in the body, so it can be rewritten there. */
const FIRST_JOB_ID = 1_000_000_000;
const JOB_ID_OFFSET = '{"job_id":'.length;
const POST_TIMEOUT_MS = 300_000;
const FINISH_TIMEOUT_MS = 300_000;

/** One review job callback of at least `mib` MiB, as the service sends a first crawl's reviews. */
interface Body {
	mib: number;
	bytes: Buffer;
	reviews: number;
}

/**
 * A review job record like the simulator's (`reviewJobRecord`), with the simulator's reviews
 * (about 390 bytes of JSON each) added until the serialized body reaches `mib` MiB. Built once
 * per size; every POST writes a new job id into it, so the trigger's repeat filter (on by default)
 * never takes a delivery for a repeat.
 */
function buildBody(mib: number): Body {
	const target = mib * MIB;
	const parts: string[] = [];
	let reviews = 0;
	// The envelope around the reviews is under 1 KiB: counted as 1 KiB while reviews are added.
	let size = 1024;
	for (let offset = 0; size < target && offset < 100_000; offset++) {
		for (const review of generateJobReviews('bench-large-delivery', { blocks: CHUNK }, offset)) {
			const json = JSON.stringify(review);
			parts.push(json);
			size += Buffer.byteLength(json) + 1;
			reviews++;
			if (size >= target) break;
		}
	}
	const envelope = JSON.stringify({
		job_id: FIRST_JOB_ID,
		success: true,
		status: 200,
		source_url: 'https://www.example.com/biz/bench-large-delivery',
		source_name: 'example',
		place_id: null,
		external_identifier: 'bench-large-delivery',
		meta_data: JSON.stringify({ origin: 'bench' }),
		unique_id: '00000000-0000-4000-8000-000000000000',
		review_count: reviews,
		average_rating: 3.5,
		last_crawl: '2025-06-01T12:00:00+00:00',
		crawl_status: 'complete',
		percentage_complete: 100,
		result_count: reviews,
		credits_used: reviews,
		from_date: null,
		blocks: null,
	});
	const text = `${envelope.slice(0, -1)},"reviews":[${parts.join(',')}]}`;
	return { mib, bytes: Buffer.from(text, 'utf8'), reviews };
}

let nextJobId = FIRST_JOB_ID;

function withNewJobId(body: Buffer): Buffer {
	body.write(String(++nextJobId), JOB_ID_OFFSET, 'latin1');
	return body;
}

/** A review job of 3 reviews: the warm-up delivery of a freshly started n8n. */
function smallJob(): string {
	return JSON.stringify({
		job_id: ++nextJobId,
		success: true,
		crawl_status: 'complete',
		review_count: 3,
		reviews: generateJobReviews('bench-large-delivery-warm-up', { blocks: 3 }, nextJobId),
	});
}

interface Answer {
	status: number;
	text: string;
	ms: number;
}

async function postJson(url: string, body: string | Buffer): Promise<Answer> {
	const started = performance.now();
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body:
			typeof body === 'string' ? body : new Uint8Array(body.buffer, body.byteOffset, body.length),
		signal: AbortSignal.timeout(POST_TIMEOUT_MS),
	});
	const text = await res.text();
	return { status: res.status, text, ms: performance.now() - started };
}

/** Production webhooks register a moment after activation or a restart: 404 is retried briefly. */
async function postWhenRegistered(url: string, body: string | Buffer): Promise<Answer> {
	const deadline = Date.now() + 15_000;
	for (;;) {
		const answer = await postJson(url, body);
		if (answer.status !== 404 || Date.now() > deadline) return answer;
		await sleep(200);
	}
}

interface ExecutionSummary {
	id: string;
	status: string;
}

/**
 * The workflow's executions without their data: the public API lists running ones only when asked
 * for them, so both lists are read. Successful ones are not saved (n8n deletes them as they end):
 * an execution that is not running and not listed has succeeded.
 */
async function executions(client: N8nClient, workflowId: string): Promise<ExecutionSummary[]> {
	const list = (status?: string) => {
		const query = new URLSearchParams({ workflowId, limit: '250' });
		if (status) query.set('status', status);
		return client.api<{ data: ExecutionSummary[] }>('GET', `/executions?${query}`);
	};
	const [settled, running] = await Promise.all([list(), list('running')]);
	return [...settled.data, ...running.data];
}

/**
 * Waits until the workflow has no unfinished execution, then fails if one it did not have before
 * ended in another status than success. n8n answers an onReceived webhook only once the execution
 * is stored, so the one this delivery started is already listed when this begins.
 */
async function waitForSuccess(client: N8nClient, workflowId: string, before: Set<string>) {
	const deadline = Date.now() + FINISH_TIMEOUT_MS;
	for (;;) {
		const list = await executions(client, workflowId);
		if (!list.some((e) => UNFINISHED.includes(e.status))) {
			const failed = list.filter((e) => !before.has(e.id) && e.status !== 'success');
			if (failed.length) {
				throw new Error(`execution ${failed.map((e) => `${e.id} ${e.status}`).join(', ')}`);
			}
			return;
		}
		if (Date.now() > deadline) throw new Error(`no end after ${FINISH_TIMEOUT_MS / 1000} s`);
		await sleep(50);
	}
}

interface Sample {
	mib: number;
	/** POST started → the execution it started has succeeded. */
	ms: number;
	/** POST started → the answer was read. */
	answerMs: number;
	status: number;
	startMb: number;
	peakMb: number;
	deltaMb: number;
	mbPerMiB: number;
	source: string;
}

type Receiver = 'trigger' | 'webhook';

const NAMES: Record<Receiver, string> = {
	trigger: 'Callback Trigger (Receive Large Deliveries)',
	webhook: 'Webhook',
};

/**
 * One delivery of `body` to `target` in a freshly restarted n8n: a heap grown by the previous
 * delivery would otherwise hide or inflate the next peak. A small delivery first loads and compiles
 * the code that runs, which is not what is measured.
 */
async function deliver(context: BenchContext, target: Deployed, body: Body): Promise<Sample> {
	const { env } = context;
	const instance = await env.restart();
	// Failed executions are saved: those of earlier deliveries are not this one's.
	const listed = async () => new Set((await executions(env.client, target.id)).map((e) => e.id));
	const earlier = await listed();
	const warmUp = await postWhenRegistered(target.url, smallJob());
	if (warmUp.status !== 200) throw new Error(`warm-up: HTTP ${warmUp.status} ${warmUp.text}`);
	await waitForSuccess(env.client, target.id, earlier);
	await sleep(1000);
	const before = await listed();

	const sampler = new RssSampler(instance.pid);
	const started = performance.now();
	let answer: Answer;
	let ms: number;
	try {
		answer = await postJson(target.url, withNewJobId(body.bytes));
		if (answer.status !== 200) {
			throw new Error(`${body.mib} MiB: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
		}
		await waitForSuccess(env.client, target.id, before);
		ms = performance.now() - started;
	} catch (error) {
		sampler.stop();
		throw error;
	}
	const rss = sampler.stop();
	const deltaMb = rss.peakMb - rss.startMb;
	return {
		mib: body.bytes.length / MIB,
		ms,
		answerMs: answer.ms,
		status: answer.status,
		startMb: rss.startMb,
		peakMb: rss.peakMb,
		deltaMb,
		mbPerMiB: deltaMb / (body.bytes.length / MIB),
		source: rss.source,
	};
}

const describeSample = (s: Sample) =>
	`HTTP ${s.status} in ${Math.round(s.answerMs)} ms, succeeded after ${Math.round(s.ms)} ms; ` +
	`peak ${Math.round(s.peakMb)} MB (idle ${Math.round(s.startMb)} MB, +${Math.round(s.deltaMb)} = ${s.mbPerMiB.toFixed(1)} MB/MiB), ${s.source}`;

function rowsFor(mib: number, trigger: Sample[], webhook: Sample[]): Row[] {
	const a = NAMES.trigger;
	const b = NAMES.webhook;
	const answers = (samples: Sample[]) =>
		samples.map((s) => `HTTP ${s.status} after ${(s.answerMs / 1000).toFixed(2)} s`).join(', ');
	return [
		{
			measure: `${mib} MiB: POST → execution succeeded; ratio A/B`,
			a: cell(
				a,
				trigger.map((s) => s.ms),
				'ms',
			),
			b: cell(
				b,
				webhook.map((s) => s.ms),
				'ms',
			),
			ratio: ratioCell(pairwise(trigger, webhook, (x, y) => x.ms / y.ms)),
			met: null,
		},
		{
			measure: `${mib} MiB: peak RSS above idle per MiB of body; ratio A/B`,
			a: cell(
				a,
				trigger.map((s) => s.mbPerMiB),
				'MB/MiB',
			),
			b: cell(
				b,
				webhook.map((s) => s.mbPerMiB),
				'MB/MiB',
			),
			ratio: ratioCell(pairwise(trigger, webhook, (x, y) => x.mbPerMiB / y.mbPerMiB)),
			met: null,
		},
		{
			measure: `${mib} MiB: peak RSS above idle`,
			a: cell(
				a,
				trigger.map((s) => s.deltaMb),
				'MB',
			),
			b: cell(
				b,
				webhook.map((s) => s.deltaMb),
				'MB',
			),
			met: null,
		},
		{
			measure: `${mib} MiB: answer to the POST`,
			a: { label: a, value: answers(trigger) },
			b: { label: b, value: answers(webhook) },
			met: null,
		},
	];
}

/**
 * One review job callback of 20 MiB (and 100 MiB in full mode), received by the Scraping Callback
 * Trigger with Receive Large Deliveries (n8n leaves the body unread and the trigger reads the
 * stream itself) and by n8n's Webhook node, which takes such a body only because the bench's n8n
 * runs with N8N_PAYLOAD_SIZE_MAX raised (default 16 MiB). Time from the POST to the execution's
 * success, and the peak RSS of the n8n process above its idle RSS.
 */
export async function largeDelivery(context: BenchContext): Promise<BenchResult> {
	const { env, quick } = context;
	const sizes = quick ? [20] : [20, 100];
	const rounds = quick ? 1 : 2;
	const payloadSizeMaxMiB = Number(BENCH_N8N_ENV.N8N_PAYLOAD_SIZE_MAX);
	if (!(payloadSizeMaxMiB > Math.max(...sizes) + 1)) {
		throw new Error(`N8N_PAYLOAD_SIZE_MAX ${payloadSizeMaxMiB} is too small for the Webhook`);
	}
	const { client } = env;

	const triggerNode = packageNode('scrapingCallbackTrigger', 'Scraping Callback Trigger', {
		options: { binaryData: true },
	});
	const trigger = await deploy(
		client,
		'bench large delivery: Callback Trigger',
		triggerNode,
		[],
		'none',
		`${triggerNode.webhookId}/callback`,
	);
	const webhookPath = 'bench-large-delivery';
	const webhook = await deploy(
		client,
		'bench large delivery: Webhook',
		webhookTrigger(webhookPath, 'onReceived', ''),
		[],
		'none',
		webhookPath,
	);

	const rows: Row[] = [];
	const raw: Record<string, unknown> = {};
	const bodies: Array<{ mib: number; bytes: number; reviews: number }> = [];
	try {
		for (const mib of sizes) {
			const started = performance.now();
			const body = buildBody(mib);
			bodies.push({ mib, bytes: body.bytes.length, reviews: body.reviews });
			log(
				`large delivery: ${(body.bytes.length / MIB).toFixed(2)} MiB, ${body.reviews.toLocaleString('en-US')} reviews ` +
					`(built in ${Math.round(performance.now() - started)} ms), ${rounds} round(s), n8n restarted before each`,
			);
			const [triggerSamples, webhookSamples] = await alternate(
				rounds,
				[
					{ name: `${mib} MiB ${NAMES.trigger}`, run: () => deliver(context, trigger, body) },
					{ name: `${mib} MiB ${NAMES.webhook}`, run: () => deliver(context, webhook, body) },
				],
				describeSample,
			);
			rows.push(...rowsFor(mib, triggerSamples, webhookSamples));
			raw[`${mib}MiB`] = { trigger: triggerSamples, webhook: webhookSamples };
		}
	} finally {
		await client.deactivate(trigger.id);
		await client.deactivate(webhook.id);
	}

	const idle = Object.values(raw).flatMap((r) =>
		Object.values(r as Record<Receiver, Sample[]>).flatMap((list) => list.map((s) => s.startMb)),
	);
	return {
		id: 'large-delivery',
		title: `Large delivery: one review job callback of ${sizes.join(' and ')} MiB`,
		params: { sizes, rounds, bodies, payloadSizeMaxMiB, save: 'success: none' },
		rows,
		notes: [
			`Bodies: ${bodies.map((b) => `${(b.bytes / MIB).toFixed(2)} MiB with ${b.reviews.toLocaleString('en-US')} reviews`).join('; ')}, posted as application/json to each workflow's production URL (the trigger alone, the Webhook node alone, both answering on receipt). ` +
				`n8n is restarted before every delivery and warmed up with a 3-review job; idle RSS ${Math.round(Math.min(...idle))}–${Math.round(Math.max(...idle))} MB; peak from the kernel's high-water mark. ` +
				`The Webhook node takes these bodies only because this n8n runs with N8N_PAYLOAD_SIZE_MAX=${payloadSizeMaxMiB} (default 16: it answers 500 above); the trigger reads the body itself. Time ends when the execution has succeeded (API, without its data).`,
		],
		raw,
	};
}
