import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { startDeliveryProxy, type DeliveryProxy } from '../../test/e2e/harness/proxy';
import { createCredentials, startEnvironment, type BenchEnvironment } from '../lib/instance';
import { cellsOfFullRun, mergedCells, placeIn } from '../lib/mergedCells';
import type { Simulator } from '../../simulator/server';
import {
	callbackTriggerNode,
	countStarted,
	fastPathDeliveryNodes,
	fastPathWebhookNode,
	reviewJobDelivery,
	sendEachAtOnce,
	throughOrigin,
	warmUp,
} from '../../test/e2e/harness/burst';
import { defaultOwner, N8nClient } from '../../test/e2e/harness/client';
import {
	activatedSchedule,
	heldScheduleDeliveries,
	recurringTriggerNode,
} from '../lib/scheduleBurst';
import { startQueueCluster } from '../../test/e2e/harness/queue';
import {
	burstTable,
	RECEIVER_LABEL,
	rssText,
	runningAtScalePage,
	withBurstTable,
	type BurstCell,
} from '../lib/burstTable';
import type { BenchContext, BenchResult, Row } from '../lib/result';
import { log } from '../lib/rounds';
import { RssSampler } from '../lib/rss';
import { deploy, PACKAGE } from '../lib/workflows';
import { LEGACY_ENGINE_ENV, LEGACY_ENGINE_LABEL } from '../lib/legacyEngine';

type Receiver = BurstCell['receiver'];

interface Setting {
	id: string;
	label: string;
	env: Record<string, string>;
}

const SETTINGS: Setting[] = [
	{ id: 'default', label: 'defaults', env: {} },
	{
		id: 'lazy',
		label: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
	{
		id: 'pool16',
		label: 'N8N_EXPRESSION_ENGINE_POOL_SIZE=16',
		env: { N8N_EXPRESSION_ENGINE_POOL_SIZE: '16' },
	},
	{
		id: 'quickjs',
		label: 'N8N_EXPRESSION_ENGINE=quickjs',
		env: { N8N_EXPRESSION_ENGINE: 'quickjs' },
	},
	{
		id: 'concurrency',
		label: 'N8N_CONCURRENCY_PRODUCTION_LIMIT=10',
		env: { N8N_CONCURRENCY_PRODUCTION_LIMIT: '10' },
	},
	// A diagnostic, not a setting to run: without the isolate, where the time goes shows. n8n 2.41.1
	// says at start with it that it "runs expressions without isolation, is no longer considered
	// secure, and will be removed in a future version". Its id stays "volume" (the commands recorded
	// in bench/results/full.md use it).
	{ id: 'volume', label: LEGACY_ENGINE_LABEL, env: LEGACY_ENGINE_ENV },
];

/** Where a burst goes: an n8n (regular, or a queue cluster's main for the API) and its webhook processes. */
interface Target {
	client: N8nClient;
	setting: Setting;
	/** Webhook processes: the first is where "direct" goes, all of them sit behind the proxy. */
	webhookUrls: string[];
	/** n8n processes whose memory is watched. */
	processes: Array<{ name: string; pid: number }>;
	/** The service the Recurring Reviews Trigger makes its schedule on, and its credential there. */
	simulator: Simulator;
	scrapingApi: { id: string; name: string };
}

/** The receiver's workflow, activated, and the requests of a burst to it (`url` once warm). */
async function deployReceiver(
	target: Target,
	receiver: Receiver,
	name: string,
	count: number,
): Promise<{
	id: string;
	url: string;
	requests(origin: string): Array<{ url: string; body: unknown }>;
}> {
	const { client } = target;
	if (receiver === 'recurring') {
		const trigger = recurringTriggerNode(PACKAGE, target.scrapingApi);
		const { id } = await deploy(client, name, trigger, [], 'all', '');
		const { scheduleId, callback } = await activatedSchedule(
			client,
			target.simulator,
			id,
			trigger.name,
		);
		const deliveries = await heldScheduleDeliveries(target.simulator, scheduleId, count);
		return {
			id,
			url: callback,
			requests: (origin) =>
				deliveries.map(({ url, body }) => ({ url: throughOrigin(url, origin), body })),
		};
	}
	if (receiver === 'pattern') {
		const { nodes, path } = fastPathDeliveryNodes(PACKAGE);
		const deployed = await deploy(client, name, nodes[0], nodes.slice(1), 'all', path);
		return { ...deployed, requests: burstRequests(deployed.url, count) };
	}
	const { node, path } =
		receiver === 'trigger'
			? (() => {
					const trigger = callbackTriggerNode(PACKAGE);
					return { node: trigger, path: `${trigger.webhookId}/callback` };
				})()
			: fastPathWebhookNode();
	const deployed = await deploy(client, name, node, [], 'all', path);
	return { ...deployed, requests: burstRequests(deployed.url, count) };
}

/** `count` review-job deliveries, each its own job, to `url` through `origin`. */
function burstRequests(url: string, count: number) {
	return (origin: string) => {
		const through = throughOrigin(url, origin);
		return Array.from({ length: count }, () => ({ url: through, body: reviewJobDelivery() }));
	};
}

async function burstCell(
	target: Target,
	receiver: Receiver,
	viaProxy: boolean,
	count: number,
	patienceMs: number,
): Promise<BurstCell> {
	const { client, setting } = target;
	const front = viaProxy
		? `HAProxy → ${target.webhookUrls.length} webhook process${target.webhookUrls.length > 1 ? 'es' : ''}`
		: 'direct';
	const name = `bench burst ${receiver} ${setting.id} ${front} ${patienceMs}`;
	const deployed = await deployReceiver(target, receiver, name, count);
	let proxy: DeliveryProxy | undefined;
	try {
		if (viaProxy) {
			const maxconn = Number(process.env.BURST_MAXCONN) || undefined;
			proxy = await startDeliveryProxy(target.webhookUrls, 'bench-burst', maxconn);
		}
		const origin = proxy?.url ?? target.webhookUrls[0];
		const before = await warmUp(client, deployed.id, throughOrigin(deployed.url, origin));
		const requests = deployed.requests(origin);
		const samplers = target.processes.map((p) => ({ name: p.name, rss: new RssSampler(p.pid) }));
		const since = Date.now();
		const outcome = await sendEachAtOnce(requests, patienceMs);
		const counted = await countStarted(client, deployed.id, since, before + count);
		const started = counted.started - before;
		const cell: BurstCell = {
			receiver,
			setting: setting.label,
			front,
			patienceMs,
			outcome,
			started,
			lost: count - started,
			lastExecutionMs: counted.lastMs,
			...memoryOf(samplers),
		};
		log(
			`  ${RECEIVER_LABEL[receiver]}, ${setting.label}, ${front}, patience ${patienceMs / 1000} s: ` +
				`${outcome.answeredInTime}/${count} answered in time, ${started} started, ${cell.lost} lost, ` +
				`last execution at ${(counted.lastMs / 1000).toFixed(1)} s, memory ${rssText(cell)}`,
		);
		return cell;
	} finally {
		await client.deactivate(deployed.id);
		await proxy?.stop();
	}
}

function memoryOf(samplers: Array<{ name: string; rss: RssSampler }>) {
	const measured = samplers.map(({ name, rss }) => ({ name, ...rss.stop() }));
	const byName = (pick: (m: (typeof measured)[number]) => number) =>
		Object.fromEntries(measured.map((m) => [m.name, Math.round(pick(m))]));
	return { startRssMb: byName((m) => m.startMb), peakRssMb: byName((m) => m.peakMb) };
}

const regularTarget = (env: BenchEnvironment, setting: Setting): Target => ({
	client: env.client,
	setting,
	webhookUrls: [env.instance.url],
	processes: [{ name: 'n8n', pid: env.instance.pid }],
	simulator: env.simulator,
	scrapingApi: env.credentials.scrapingApi,
});

const QUEUE_SETTING = { id: 'queue', label: 'queue mode, defaults', env: {} };
const RECEIVERS: Receiver[] = ['webhook', 'pattern', 'trigger', 'recurring'];

/** A cell's place in the matrix: setting, patience, receiver, then straight to n8n before the front. */
const matrixOrder = (cell: BurstCell) => [
	placeIn(
		[...SETTINGS, QUEUE_SETTING].map((s) => s.label),
		cell.setting,
	),
	cell.patienceMs,
	placeIn(RECEIVERS, cell.receiver),
	cell.front === 'direct' ? 0 : 1,
];

/**
 * Queue mode as shipped: the stack's twin (`npm start -- --scale` starts the same), PostgreSQL,
 * Redis, main, two webhook processes, two workers. The cells' own front stands before both webhook
 * processes, as the twin's does.
 */
async function queueTarget(
	env: BenchEnvironment,
): Promise<{ target: Target; stop(): Promise<void> }> {
	const cluster = await startQueueCluster({
		tarball: env.tarball,
		label: 'bench-burst-queue',
		stack: true,
	});
	try {
		const client = new N8nClient(cluster.main.url);
		await client.signIn(defaultOwner);
		await client.createApiKey('bench burst queue');
		const credentials = await createCredentials(client, env.simulator, 'bench burst queue', {});
		const processes = cluster
			.processes()
			.filter((p) => p.alive && p.pid)
			.map(({ name, pid }) => ({ name, pid }));
		return {
			target: {
				client,
				setting: QUEUE_SETTING,
				webhookUrls: cluster.webhooks.map((webhook) => webhook!.url),
				processes,
				simulator: env.simulator,
				scrapingApi: credentials.scrapingApi,
			},
			stop: () => cluster.stop(),
		};
	} catch (error) {
		await cluster.stop();
		throw error;
	}
}

/**
 * N deliveries at one moment, each sender giving up after its patience, to the Scraping Callback
 * Trigger, the Recurring Reviews Trigger (its schedule's runs, as the service delivers them) and
 * n8n's own Webhook node, under n8n's expression engine settings, straight to n8n and through the
 * shipped HAProxy configuration. Per cell: answered in time, executions started, lost, when the
 * last execution ended, n8n's peak RSS. The quick run keeps the cliff's cells only.
 */
export async function burst({ env, quick }: BenchContext): Promise<BenchResult> {
	// A diagnosis changes what is measured: BURST_COUNT, BURST_MAXCONN (in place of the shipped
	// HAProxy file's). A narrowing measures some cells again: BURST_PATIENCE_S, BURST_SETTINGS (ids,
	// comma-separated; "queue" for the cluster) and BURST_ONLY (receiver:front, e.g.
	// recurring:HAProxy); the other cells are kept from bench/results/full.json, so that
	// `--only=burst --update` replaces those cells only.
	// Quick: a smaller burst with a shorter patience, which shows the same loss (CI's smoke run).
	const count = Number(process.env.BURST_COUNT) || (quick ? 200 : 1000);
	const patiences = process.env.BURST_PATIENCE_S
		? process.env.BURST_PATIENCE_S.split(',').map((s) => Number(s) * 1000)
		: quick
			? [2_000]
			: [10_000, 30_000];
	const chosen = process.env.BURST_SETTINGS?.split(',') ?? (quick ? ['default'] : undefined);
	const settings = chosen ? SETTINGS.filter((s) => chosen.includes(s.id)) : SETTINGS;
	const withQueue = chosen ? chosen.includes('queue') : !quick;
	const cells: BurstCell[] = [];
	const only = process.env.BURST_ONLY?.split(',');
	const run = async (target: Target, plan: ReadonlyArray<readonly [Receiver, boolean]>) => {
		for (const patienceMs of patiences) {
			for (const [receiver, viaProxy] of plan) {
				if (only && !only.includes(`${receiver}:${viaProxy ? 'HAProxy' : 'direct'}`)) continue;
				cells.push(await burstCell(target, receiver, viaProxy, count, patienceMs));
			}
		}
	};
	const bothWays = (...receivers: Receiver[]) =>
		receivers.flatMap((receiver) => [[receiver, false] as const, [receiver, true] as const]);
	for (const setting of settings) {
		if (setting.id === 'default') {
			// Quick (CI): the cliff and the cure; the full run adds n8n's Webhook node as the anchor,
			// the Recurring Reviews Trigger, and the receiving pattern on n8n's fast path (Webhook node
			// → Scraping Delivery), which needs no front.
			await run(
				regularTarget(env, setting),
				quick
					? bothWays('trigger')
					: [...bothWays('webhook', 'trigger', 'recurring'), ['pattern', false] as const],
			);
			continue;
		}
		log(`burst: starting n8n with ${setting.label}`);
		const other = await startEnvironment({ n8nEnv: setting.env, name: `bench-${setting.id}` });
		try {
			await run(
				regularTarget(other, setting),
				setting.id === 'volume' ? bothWays('trigger', 'recurring') : bothWays('trigger'),
			);
		} finally {
			await other.close();
		}
	}
	if (withQueue) {
		log('burst: starting a queue-mode cluster with two webhook processes');
		const queue = await queueTarget(env);
		try {
			await run(queue.target, bothWays('webhook', 'trigger'));
		} finally {
			await queue.stop();
		}
	}

	const diagnosis = ['BURST_COUNT', 'BURST_MAXCONN'].some((name) => process.env[name]);
	const narrowed = ['BURST_PATIENCE_S', 'BURST_SETTINGS', 'BURST_ONLY'].some(
		(name) => process.env[name],
	);
	const kept = !quick && !diagnosis && narrowed ? cellsOfFullRun('burst', count) : [];
	const matrix = mergedCells(kept, cells, matrixOrder);
	if (!quick && !diagnosis) {
		const page = readFileSync(runningAtScalePage, 'utf8');
		writeFileSync(runningAtScalePage, withBurstTable(page, burstTable(matrix, count)));
		log(`burst: wrote the matrix into ${path.relative(process.cwd(), runningAtScalePage)}`);
	}
	const rows: Row[] = matrix.map((cell) => ({
		measure: `${RECEIVER_LABEL[cell.receiver]}, ${cell.setting}, ${cell.front}, patience ${cell.patienceMs / 1000} s`,
		a: {
			label: 'answered in time / started / lost',
			value: `${cell.outcome.answeredInTime} / ${cell.started} / ${cell.lost}`,
		},
		b: {
			label: 'last execution; memory at start → peak',
			value: `${(cell.lastExecutionMs / 1000).toFixed(1)} s; ${rssText(cell)}`,
		},
		goal: cell.front !== 'direct' ? '0 lost' : undefined,
		met: cell.front !== 'direct' ? cell.lost === 0 : null,
	}));
	const allSettings = [...SETTINGS, QUEUE_SETTING].filter((s) =>
		matrix.some((cell) => cell.setting === s.label),
	);
	return {
		id: 'burst',
		title: `A day's deliveries at once: ${count.toLocaleString('en-US')} review-job callbacks POSTed at one moment`,
		params: {
			count,
			patiences: [...new Set(matrix.map((cell) => cell.patienceMs))].sort((a, b) => a - b),
			settings: allSettings.map((s) => s.label),
		},
		rows,
		notes: [
			'Each sender gives up after its patience, as a webhook sender does. "Started" counts the executions n8n saved once every one had ended and all had started, or the count had held still for 15 s; "lost" is sent minus started. HAProxy runs deploy/haproxy.cfg as shipped. The Recurring Reviews Trigger\'s deliveries are its schedule\'s runs as the simulator makes them (one profile, three reviews each, the schedule\'s secret in the URL).',
			...(kept.length
				? [
						`${cells.length} cells measured by this run, ${matrix.length - cells.length} kept from the earlier run of bench/results/full.json.`,
					]
				: []),
		],
		raw: { cells: matrix },
		keepsEarlierFigures: kept.length > 0,
	};
}
