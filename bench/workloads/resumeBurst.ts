import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import {
	countResumed,
	RESUMER_LABEL,
	sendEachAtOnce,
	throughOrigin,
	waitingNodes,
	waitingWithHeldCallbacks,
	type Resumer,
} from '../../test/e2e/harness/burst';
import { startDeliveryProxy, type DeliveryProxy } from '../../test/e2e/harness/proxy';
import { volumeEnv } from '../../test/e2e/harness/volumeEnv';
import { webhookNode } from '../../test/e2e/harness/workflows';
import {
	resumeTable,
	rssText,
	runningAtScalePage,
	withResumeTable,
	type BurstCell,
} from '../lib/burstTable';
import { startEnvironment, type BenchEnvironment } from '../lib/instance';
import type { BenchContext, BenchResult, Row } from '../lib/result';
import { log } from '../lib/rounds';
import { RssSampler } from '../lib/rss';
import { PACKAGE, saveSettings } from '../lib/workflows';
import { chain } from '../../test/e2e/harness/workflows';

const SETTINGS = [
	{ id: 'default', label: 'defaults', env: (): Record<string, string> => ({}) },
	{ id: 'volume', label: 'deploy/volume/n8n-volume.env', env: volumeEnv },
];

const FRONT_VIA_PROXY = 'HAProxy → 1 webhook process';

async function resumeCell(
	env: BenchEnvironment,
	setting: string,
	resumer: Resumer,
	viaProxy: boolean,
	count: number,
	patienceMs: number,
): Promise<BurstCell> {
	const { client, simulator } = env;
	const front = viaProxy ? FRONT_VIA_PROXY : 'direct';
	const startPath = `bench-resume-${resumer}-${viaProxy ? 'proxy' : 'direct'}-${Date.now()}`;
	const { id: workflowId } = await client.createWorkflow({
		name: `bench resume burst: ${RESUMER_LABEL[resumer]}, ${setting}, ${front}`,
		...chain([
			webhookNode(startPath, { respond: 'onReceived' }),
			...waitingNodes(resumer, PACKAGE, simulator.urls.baseUrl, env.credentials.reviewScraperApi),
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
			`${env.instance.url}/webhook/${startPath}`,
			count,
			startPath,
		);
		if (viaProxy) proxy = await startDeliveryProxy([env.instance.url], 'bench-resume');
		const origin = proxy?.url ?? env.instance.url;
		const rss = new RssSampler(env.instance.pid);
		const since = Date.now();
		const outcome = await sendEachAtOnce(
			callbacks.map(({ url, body }) => ({ url: throughOrigin(url, origin), body })),
			patienceMs,
		);
		const { resumed, lastMs } = await countResumed(client, workflowId, waiting, since);
		const memory = rss.stop();
		const cell: BurstCell = {
			receiver: resumer,
			setting,
			front,
			patienceMs,
			outcome,
			started: resumed.length,
			lost: count - resumed.length,
			lastExecutionMs: lastMs,
			startRssMb: { n8n: Math.round(memory.startMb) },
			peakRssMb: { n8n: Math.round(memory.peakMb) },
		};
		log(
			`  ${RESUMER_LABEL[resumer]}, ${setting}, ${front}, patience ${patienceMs / 1000} s: ` +
				`${outcome.answeredInTime}/${count} answered in time, ${cell.started} resumed, ${cell.lost} lost, ` +
				`last resume ended at ${(lastMs / 1000).toFixed(1)} s, memory ${rssText(cell)}`,
		);
		return cell;
	} finally {
		await client.deactivate(workflowId);
		await proxy?.stop();
	}
}

/**
 * N executions waiting for their jobs, every callback sent at one moment with the service's
 * patience: the package's Wait for Completion against n8n's Wait node ("On Webhook Call"),
 * straight to n8n and through the shipped HAProxy front (the resume URL's origin is the front's,
 * as n8n builds it with WEBHOOK_URL pointing there), on n8n's defaults and with the volume env.
 * Per cell: answered in time, resumed, lost, when the last resumed execution ended, n8n's memory.
 */
export async function resumeBurst({ env }: BenchContext): Promise<BenchResult> {
	// A diagnosis narrows the run: RESUME_COUNT, RESUME_PATIENCE_S (comma-separated),
	// RESUME_SETTINGS (default, volume) and RESUME_ONLY (resumer:front, e.g. waitNode:direct).
	const count = Number(process.env.RESUME_COUNT) || 1000;
	const patiences = (process.env.RESUME_PATIENCE_S ?? '10').split(',').map((s) => Number(s) * 1000);
	const chosen = process.env.RESUME_SETTINGS?.split(',');
	const settings = chosen ? SETTINGS.filter((s) => chosen.includes(s.id)) : SETTINGS;
	const only = process.env.RESUME_ONLY?.split(',');
	const plan = [
		['waitNode', false],
		['waitForCompletion', false],
		['waitNode', true],
		['waitForCompletion', true],
	] as const;
	const cells: BurstCell[] = [];
	for (const setting of settings) {
		const own =
			setting.id === 'default'
				? undefined
				: await startEnvironment({ n8nEnv: setting.env(), name: `bench-resume-${setting.id}` });
		try {
			for (const patienceMs of patiences) {
				for (const [resumer, viaProxy] of plan) {
					if (only && !only.includes(`${resumer}:${viaProxy ? 'HAProxy' : 'direct'}`)) continue;
					cells.push(
						await resumeCell(own ?? env, setting.label, resumer, viaProxy, count, patienceMs),
					);
				}
			}
		} finally {
			await own?.close();
		}
	}

	const diagnosis = Object.keys(process.env).some((name) => name.startsWith('RESUME_'));
	if (!diagnosis) {
		const page = readFileSync(runningAtScalePage, 'utf8');
		writeFileSync(runningAtScalePage, withResumeTable(page, resumeTable(cells, count)));
		log(`resume-burst: wrote the matrix into ${path.relative(process.cwd(), runningAtScalePage)}`);
	}
	const rows: Row[] = cells.map((cell) => ({
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
	return {
		id: 'resume-burst',
		title: `Resumes at once: ${count.toLocaleString('en-US')} waiting executions, every callback at one moment`,
		params: { count, patiences, settings: settings.map((s) => s.label) },
		rows,
		notes: [
			'Each execution submitted one profile and went to wait; the simulator completed every job at once and its callbacks were sent together, each sender giving up after its patience. "Resumed" counts the executions that ended once every one had ended or none had for 15 s; "lost" ones still wait (the service sends again 2 hours later). HAProxy runs deploy/volume/haproxy.cfg as shipped. The machine\'s CPUs were shared with other work during the run.',
		],
		raw: { cells },
	};
}
