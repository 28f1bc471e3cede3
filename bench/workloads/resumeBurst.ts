import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Simulator } from '../../simulator/server';
import {
	countResumed,
	RESUMER_LABEL,
	sendEachAtOnce,
	throughOrigin,
	waitingNodes,
	waitingWithHeldCallbacks,
	type Resumer,
} from '../../test/e2e/harness/burst';
import { defaultOwner, N8nClient } from '../../test/e2e/harness/client';
import { startDeliveryProxy, type DeliveryProxy } from '../../test/e2e/harness/proxy';
import { startQueueCluster } from '../../test/e2e/harness/queue';
import { webhookNode } from '../../test/e2e/harness/workflows';
import {
	resumeTable,
	rssText,
	runningAtScalePage,
	withResumeTable,
	type BurstCell,
} from '../lib/burstTable';
import { createCredentials, startEnvironment, type BenchEnvironment } from '../lib/instance';
import { cellsOfFullRun, mergedCells, placeIn } from '../lib/mergedCells';
import type { BenchContext, BenchResult, Row } from '../lib/result';
import { log } from '../lib/rounds';
import { RssSampler } from '../lib/rss';
import { PACKAGE, saveSettings } from '../lib/workflows';
import { LEGACY_ENGINE_ENV, LEGACY_ENGINE_LABEL } from '../lib/legacyEngine';
import { chain } from '../../test/e2e/harness/workflows';

interface Setting {
	id: string;
	label: string;
	env(): Record<string, string>;
	/** Queue mode with two webhook processes behind the front, in place of one regular n8n. */
	queue?: true;
}

const SETTINGS: Setting[] = [
	{ id: 'default', label: 'defaults', env: () => ({}) },
	// A diagnostic (bench/lib/legacyEngine.ts); the ids stay those of the commands in full.md.
	{ id: 'volume', label: LEGACY_ENGINE_LABEL, env: () => LEGACY_ENGINE_ENV },
	{ id: 'queue', label: 'queue mode, defaults', env: () => ({}), queue: true },
	{
		id: 'queue-volume',
		label: `queue mode, ${LEGACY_ENGINE_LABEL}`,
		env: () => LEGACY_ENGINE_ENV,
		queue: true,
	},
];

/** Where the executions wait and their callbacks go: one n8n, or a queue cluster. */
interface Target {
	setting: Setting;
	client: N8nClient;
	simulator: Simulator;
	reviewScraperApi: { id: string; name: string };
	/** The webhook processes: the first is the resume URL's origin (WEBHOOK_URL), all sit behind the front. */
	webhookUrls: string[];
	processes: Array<{ name: string; pid: number }>;
}

const frontOf = (target: Target, viaProxy: boolean) =>
	viaProxy
		? `HAProxy → ${target.webhookUrls.length} webhook process${target.webhookUrls.length > 1 ? 'es' : ''}`
		: 'direct';

async function resumeCell(
	target: Target,
	resumer: Resumer,
	viaProxy: boolean,
	count: number,
	patienceMs: number,
): Promise<BurstCell> {
	const { client, simulator, setting } = target;
	const front = frontOf(target, viaProxy);
	const startPath = `bench-resume-${resumer}-${viaProxy ? 'proxy' : 'direct'}-${Date.now()}`;
	const { id: workflowId } = await client.createWorkflow({
		name: `bench resume burst: ${RESUMER_LABEL[resumer]}, ${setting.label}, ${front}`,
		...chain([
			webhookNode(startPath, { respond: 'onReceived' }),
			...waitingNodes(resumer, PACKAGE, simulator.urls.baseUrl, target.reviewScraperApi),
		]),
		// Every execution saved, as n8n's defaults do.
		settings: saveSettings('all'),
	});
	await client.activate(workflowId);
	let proxy: DeliveryProxy | undefined;
	try {
		const { waiting, callbacks } = await waitingWithHeldCallbacks(
			client,
			simulator,
			workflowId,
			`${target.webhookUrls[0]}/webhook/${startPath}`,
			count,
			startPath,
		);
		if (viaProxy) proxy = await startDeliveryProxy(target.webhookUrls, 'bench-resume');
		const origin = proxy?.url ?? target.webhookUrls[0];
		const samplers = target.processes.map((p) => ({ name: p.name, rss: new RssSampler(p.pid) }));
		const since = Date.now();
		const outcome = await sendEachAtOnce(
			callbacks.map(({ url, body }) => ({ url: throughOrigin(url, origin), body })),
			patienceMs,
		);
		const { resumed, lastMs } = await countResumed(client, workflowId, waiting, since);
		const memory = samplers.map(({ name, rss }) => ({ name, ...rss.stop() }));
		const byName = (pick: (m: (typeof memory)[number]) => number) =>
			Object.fromEntries(memory.map((m) => [m.name, Math.round(pick(m))]));
		const cell: BurstCell = {
			receiver: resumer,
			setting: setting.label,
			front,
			patienceMs,
			outcome,
			started: resumed.length,
			lost: count - resumed.length,
			lastExecutionMs: lastMs,
			startRssMb: byName((m) => m.startMb),
			peakRssMb: byName((m) => m.peakMb),
		};
		log(
			`  ${RESUMER_LABEL[resumer]}, ${setting.label}, ${front}, patience ${patienceMs / 1000} s: ` +
				`${outcome.answeredInTime}/${count} answered in time, ${cell.started} resumed, ${cell.lost} lost, ` +
				`last resume ended at ${(lastMs / 1000).toFixed(1)} s, memory ${rssText(cell)}`,
		);
		return cell;
	} finally {
		await client.deactivate(workflowId);
		await proxy?.stop();
	}
}

const regularTarget = (env: BenchEnvironment, setting: Setting): Target => ({
	setting,
	client: env.client,
	simulator: env.simulator,
	reviewScraperApi: env.credentials.reviewScraperApi,
	webhookUrls: [env.instance.url],
	processes: [{ name: 'n8n', pid: env.instance.pid }],
});

/**
 * Queue mode: PostgreSQL, Redis, main, two webhook processes, two workers. n8n's defaults run the
 * stack as shipped (`npm start -- --scale` starts the same: deploy/n8n.env, N8N_WEBHOOK_URL at its
 * front); a diagnostic setting runs a cluster with that setting in every process's environment.
 */
async function queueTarget(
	env: BenchEnvironment,
	setting: Setting,
): Promise<{ target: Target; stop(): Promise<void> }> {
	const asShipped = Object.keys(setting.env()).length === 0;
	const own = { N8N_LOG_LEVEL: 'warn', ...setting.env() };
	const cluster = await startQueueCluster(
		asShipped
			? { tarball: env.tarball, label: `bench-resume-${setting.id}`, stack: true }
			: {
					tarball: env.tarball,
					label: `bench-resume-${setting.id}`,
					env: { main: own, webhook: own, worker: own },
				},
	);
	try {
		if (!asShipped) await cluster.startWebhook(1);
		const client = new N8nClient(cluster.main.url);
		await client.signIn(defaultOwner);
		await client.createApiKey('bench resume burst queue');
		const credentials = await createCredentials(client, env.simulator, 'bench resume queue', {
			requestsPerSecond: 0,
		});
		return {
			target: {
				setting,
				client,
				simulator: env.simulator,
				reviewScraperApi: credentials.reviewScraperApi,
				webhookUrls: cluster.webhooks.map((webhook) => webhook!.url),
				processes: cluster
					.processes()
					.filter((p) => p.alive && p.pid)
					.map(({ name, pid }) => ({ name, pid })),
			},
			stop: () => cluster.stop(),
		};
	} catch (error) {
		await cluster.stop();
		throw error;
	}
}

const RESUMERS: Resumer[] = ['waitNode', 'waitForCompletion'];

/** A cell's place in the matrix: setting, patience, straight to n8n before the front, resumer. */
const matrixOrder = (cell: BurstCell) => [
	placeIn(
		SETTINGS.map((s) => s.label),
		cell.setting,
	),
	cell.patienceMs,
	cell.front === 'direct' ? 0 : 1,
	placeIn(RESUMERS, cell.receiver as Resumer),
];

/**
 * N executions waiting for their jobs, every callback sent at one moment with the service's
 * patience: the package's Wait for Completion against n8n's Wait node ("On Webhook Call"),
 * straight to n8n and through the shipped HAProxy front (the resume URL's origin is the front's,
 * as n8n builds it with WEBHOOK_URL pointing there), on n8n's defaults and with n8n's legacy expression engine (a diagnostic), in
 * regular mode and in queue mode with two webhook processes behind the front.
 * Per cell: answered in time, resumed, lost, when the last resumed execution ended, n8n's memory.
 */
export async function resumeBurst({ env }: BenchContext): Promise<BenchResult> {
	// A diagnosis changes what is measured: RESUME_COUNT. A narrowing measures some cells again,
	// the others kept from bench/results/full.json (so that `--only=resume-burst --update` replaces
	// those cells only): RESUME_PATIENCE_S (comma-separated), RESUME_SETTINGS (default, volume,
	// queue, queue-volume) and RESUME_ONLY (resumer:front, e.g. waitNode:direct).
	const count = Number(process.env.RESUME_COUNT) || 1000;
	const patiences = (process.env.RESUME_PATIENCE_S ?? '10,30')
		.split(',')
		.map((s) => Number(s) * 1000);
	const chosen = process.env.RESUME_SETTINGS?.split(',');
	const settings = chosen ? SETTINGS.filter((s) => chosen.includes(s.id)) : SETTINGS;
	const only = process.env.RESUME_ONLY?.split(',');
	const regularPlan = [
		['waitNode', false],
		['waitForCompletion', false],
		['waitNode', true],
		['waitForCompletion', true],
	] as const;
	// Queue mode is measured where it is meant to run, behind the load balancer.
	const queuePlan = regularPlan.filter(([, viaProxy]) => viaProxy);
	const cells: BurstCell[] = [];
	for (const setting of settings) {
		if (setting.queue) log(`resume-burst: starting a queue-mode cluster, ${setting.label}`);
		const own = setting.queue
			? await queueTarget(env, setting)
			: setting.id === 'default'
				? undefined
				: await (async () => {
						const other = await startEnvironment({
							n8nEnv: setting.env(),
							name: `bench-resume-${setting.id}`,
						});
						return { target: regularTarget(other, setting), stop: () => other.close() };
					})();
		const target = own?.target ?? regularTarget(env, setting);
		try {
			for (const patienceMs of patiences) {
				for (const [resumer, viaProxy] of setting.queue ? queuePlan : regularPlan) {
					if (only && !only.includes(`${resumer}:${viaProxy ? 'HAProxy' : 'direct'}`)) continue;
					cells.push(await resumeCell(target, resumer, viaProxy, count, patienceMs));
				}
			}
		} finally {
			await own?.stop();
		}
	}

	const diagnosis = Boolean(process.env.RESUME_COUNT);
	const narrowed = ['RESUME_PATIENCE_S', 'RESUME_SETTINGS', 'RESUME_ONLY'].some(
		(name) => process.env[name],
	);
	const kept = !diagnosis && narrowed ? cellsOfFullRun('resume-burst', count) : [];
	const matrix = mergedCells(kept, cells, matrixOrder);
	if (!diagnosis) {
		const page = readFileSync(runningAtScalePage, 'utf8');
		writeFileSync(runningAtScalePage, withResumeTable(page, resumeTable(matrix, count)));
		log(`resume-burst: wrote the matrix into ${path.relative(process.cwd(), runningAtScalePage)}`);
	}
	const rows: Row[] = matrix.map((cell) => ({
		measure: `${RESUMER_LABEL[cell.receiver as Resumer]}, ${cell.setting}, ${cell.front}, patience ${cell.patienceMs / 1000} s`,
		a: {
			label: 'answered in time / resumed / lost',
			value: `${cell.outcome.answeredInTime} / ${cell.started} / ${cell.lost}`,
		},
		b: {
			label: 'last resume ended; memory at start → peak',
			value: `${(cell.lastExecutionMs / 1000).toFixed(1)} s; ${rssText(cell)}`,
		},
		goal: cell.front !== 'direct' ? '0 lost' : undefined,
		met: cell.front !== 'direct' ? cell.lost === 0 : null,
	}));
	const measuredPatiences = [...new Set(matrix.map((cell) => cell.patienceMs))].sort(
		(a, b) => a - b,
	);
	return {
		id: 'resume-burst',
		title: `Resumes at once: ${count.toLocaleString('en-US')} waiting executions, every callback at one moment`,
		params: {
			count,
			patiences: measuredPatiences,
			settings: SETTINGS.filter((s) => matrix.some((cell) => cell.setting === s.label)).map(
				(s) => s.label,
			),
		},
		rows,
		notes: [
			'Each execution submitted one profile and went to wait; the simulator completed every job at once and its callbacks were sent together, each sender giving up after its patience. "Resumed" counts the executions that ended once every one had ended or none had for 15 s; "lost" ones still wait (the service sends again 2 hours later). HAProxy runs deploy/haproxy.cfg as shipped, one server line per webhook process. Queue mode: PostgreSQL, Redis, main, two webhook processes and two workers (concurrency 5), all on the same 2 CPUs, the setting in every process\'s environment. The machine\'s CPUs were shared with other work during the run.',
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
