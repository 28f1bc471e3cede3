import { startDeliveryProxy, type DeliveryProxy } from '../../test/e2e/harness/proxy';
import { volumeEnv } from '../../test/e2e/harness/volumeEnv';
import { startEnvironment, type BenchEnvironment } from '../lib/instance';
import {
	callbackTriggerNode,
	countStarted,
	fastPathWebhookNode,
	reviewJobDelivery,
	sendBurst,
	warmUp,
	type BurstOutcome,
} from '../../test/e2e/harness/burst';
import type { BenchContext, BenchResult, Row } from '../lib/result';
import { log } from '../lib/rounds';
import { RssSampler } from '../lib/rss';
import { deploy, PACKAGE } from '../lib/workflows';

type Receiver = 'trigger' | 'webhook';
const RECEIVER_LABEL: Record<Receiver, string> = {
	trigger: 'Scraping Callback Trigger',
	webhook: "n8n's Webhook node (static, Immediately)",
};

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
	{ id: 'volume', label: 'deploy/volume/n8n-volume.env', env: volumeEnv() },
];

interface Cell {
	receiver: Receiver;
	setting: string;
	front: 'direct' | 'HAProxy';
	patienceMs: number;
	outcome: BurstOutcome;
	started: number;
	lost: number;
	lastExecutionMs: number;
	peakRssMb: number;
}

async function burstCell(
	env: BenchEnvironment,
	receiver: Receiver,
	setting: Setting,
	front: Cell['front'],
	count: number,
	patienceMs: number,
): Promise<Cell> {
	const { client } = env;
	const name = `bench burst ${receiver} ${setting.id} ${front} ${patienceMs}`;
	let deployed;
	if (receiver === 'trigger') {
		const trigger = callbackTriggerNode(PACKAGE);
		deployed = await deploy(client, name, trigger, [], 'all', `${trigger.webhookId}/callback`);
	} else {
		const { node, path } = fastPathWebhookNode();
		deployed = await deploy(client, name, node, [], 'all', path);
	}
	let proxy: DeliveryProxy | undefined;
	try {
		if (front === 'HAProxy') {
			const maxconn = Number(process.env.BURST_MAXCONN) || undefined;
			proxy = await startDeliveryProxy([env.instance.url], 'bench-burst', maxconn);
		}
		const url = proxy ? deployed.url.replace(env.instance.url, proxy.url) : deployed.url;
		const before = await warmUp(client, deployed.id, url);
		const bodies = Array.from({ length: count }, reviewJobDelivery);
		const rss = new RssSampler(env.instance.pid);
		const since = Date.now();
		const outcome = await sendBurst(url, bodies, patienceMs);
		const counted = await countStarted(client, deployed.id, since, before + count);
		const started = counted.started - before;
		const cell: Cell = {
			receiver,
			setting: setting.label,
			front,
			patienceMs,
			outcome,
			started,
			lost: count - started,
			lastExecutionMs: counted.lastMs,
			peakRssMb: Math.round(rss.stop().peakMb),
		};
		log(
			`  ${RECEIVER_LABEL[receiver]}, ${setting.label}, ${front}, patience ${patienceMs / 1000} s: ` +
				`${outcome.answeredInTime}/${count} answered in time, ${started} started, ${cell.lost} lost, ` +
				`last execution at ${(counted.lastMs / 1000).toFixed(1)} s, peak RSS ${cell.peakRssMb} MB`,
		);
		return cell;
	} finally {
		await client.deactivate(deployed.id);
		await proxy?.stop();
	}
}

/**
 * N deliveries at one moment, each sender giving up after its patience, to the Scraping Callback
 * Trigger and to n8n's own Webhook node, under n8n's expression engine settings, straight to n8n
 * and through the shipped HAProxy configuration. Per cell: answered in time, executions started,
 * lost, when the last execution ended, n8n's peak RSS. The quick run keeps the cliff's cells only.
 */
export async function burst({ env, quick }: BenchContext): Promise<BenchResult> {
	// BURST_COUNT, BURST_PATIENCE_S, BURST_SETTINGS (ids, comma-separated) and BURST_MAXCONN (in
	// place of the shipped HAProxy file's) and BURST_ONLY (receiver:front, e.g. trigger:HAProxy)
	// narrow a diagnosis.
	const count = Number(process.env.BURST_COUNT) || (quick ? 150 : 1000);
	const patiences = process.env.BURST_PATIENCE_S
		? process.env.BURST_PATIENCE_S.split(',').map((s) => Number(s) * 1000)
		: quick
			? [10_000]
			: [10_000, 30_000];
	const chosen = process.env.BURST_SETTINGS?.split(',') ?? (quick ? ['default'] : undefined);
	const settings = chosen ? SETTINGS.filter((s) => chosen.includes(s.id)) : SETTINGS;
	const cells: Cell[] = [];
	const others: BenchEnvironment[] = [];
	try {
		for (const setting of settings) {
			let target = env;
			if (setting.id !== 'default') {
				log(`burst: starting n8n with ${setting.label}`);
				target = await startEnvironment({ n8nEnv: setting.env, name: `bench-${setting.id}` });
				others.push(target);
			}
			for (const patienceMs of patiences) {
				const plan: Array<readonly [Receiver, Cell['front']]> = [
					...(setting.id === 'default'
						? ([
								['webhook', 'direct'],
								['webhook', 'HAProxy'],
							] as const)
						: []),
					['trigger', 'direct'],
					['trigger', 'HAProxy'],
				];
				const only = process.env.BURST_ONLY?.split(',');
				for (const [receiver, front] of plan) {
					if (only && !only.includes(`${receiver}:${front}`)) continue;
					cells.push(await burstCell(target, receiver, setting, front, count, patienceMs));
				}
			}
			if (target !== env) {
				await target.close();
				others.splice(others.indexOf(target), 1);
			}
		}
	} finally {
		await Promise.all(others.map((other) => other.close()));
	}

	const rows: Row[] = cells.map((cell) => ({
		measure: `${RECEIVER_LABEL[cell.receiver]}, ${cell.setting}, ${cell.front}, patience ${cell.patienceMs / 1000} s`,
		a: {
			label: 'answered in time / started / lost',
			value: `${cell.outcome.answeredInTime} / ${cell.started} / ${cell.lost}`,
		},
		b: {
			label: 'last execution, peak RSS',
			value: `${(cell.lastExecutionMs / 1000).toFixed(1)} s, ${cell.peakRssMb} MB`,
		},
		goal: cell.front === 'HAProxy' ? '0 lost' : undefined,
		met: cell.front === 'HAProxy' ? cell.lost === 0 : null,
	}));
	return {
		id: 'burst',
		title: `A day's deliveries at once: ${count.toLocaleString('en-US')} review-job callbacks POSTed at one moment`,
		params: { count, patiences, settings: settings.map((s) => s.label) },
		rows,
		notes: [
			'Each sender gives up after its patience, as a webhook sender does. "Started" counts the executions n8n saved (the count held still for 15 s and every one had ended); "lost" is sent minus started. HAProxy runs deploy/volume/haproxy.cfg as shipped.',
		],
		raw: { cells },
	};
}
