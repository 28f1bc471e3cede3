/**
 * `npm run bench` (full) and `npm run bench:quick` (`--quick`: small N, few rounds, for CI).
 * Options: `--only=per-item,bulk,...` runs a subset; `--cpu-prof` makes n8n write CPU profiles
 * to test-artifacts/bench/profiles when it stops; `--n8n-env=NAME=VALUE` (repeatable) sets an
 * environment variable of n8n, to test a cause (e.g. `N8N_EXPRESSION_ENGINE=legacy`);
 * `--baseline=<git rev>` builds the package at that revision in a temporary folder, installs it
 * in a second n8n and runs the benches that have a paired form on both builds side by side.
 * Writes bench/results/latest.{json,md} and <mode>.{json,md} (diagnostic.{json,md} for a run
 * with --only, --n8n-env or --baseline) and prints the table. `--only=a,b --update` puts the
 * named benches' new results into <mode>.{json,md} in place of their old ones, the others kept
 * (the header says which were measured when).
 */
import os from 'node:os';
import path from 'node:path';

import { n8nVersion } from '../test/e2e/harness/paths';
import { buildBaseline, workingTree, type BaselineBuild, type PairedContext } from './lib/baseline';
import {
	BENCH_N8N_ENV,
	benchArtifacts,
	startEnvironment,
	type BenchEnvironment,
} from './lib/instance';
import { writeResults } from './lib/report';
import type { BenchContext, BenchResult } from './lib/result';
import { log } from './lib/rounds';
import { bulk } from './workloads/bulk';
import { burst } from './workloads/burst';
import { resumeBurst } from './workloads/resumeBurst';
import { callbackIntake, expressionEngineIntake, isolateDiagnosis } from './workloads/intake';
import { largeDelivery } from './workloads/large-delivery';
import { simulatorLimit } from './workloads/limit';
import { memory } from './workloads/memory';
import { perItemOverhead, perItemPaired } from './workloads/per-item';
import { returnAll, returnAllPaired } from './workloads/return-all';
import { serviceLimit } from './workloads/service-limit';
import { waitingAtScale } from './workloads/waiting';
import { patterns } from './workloads/patterns';
import { faults } from './workloads/faults';

const BENCHES: Array<{
	id: string;
	run: (context: BenchContext) => Promise<BenchResult>;
	/** Left out of --quick: it starts n8n instances of its own, too slow for CI. */
	fullOnly?: boolean;
	/** A diagnosis: runs only when named in --only. */
	onRequest?: boolean;
	/** With --baseline: the working tree's build against the baseline's, side by side. */
	paired?: (context: PairedContext) => Promise<BenchResult>;
}> = [
	{ id: 'limit', run: simulatorLimit },
	{ id: 'per-item', run: perItemOverhead, paired: perItemPaired },
	{ id: 'bulk', run: bulk },
	{ id: 'service-limit', run: serviceLimit },
	{ id: 'return-all', run: returnAll, paired: returnAllPaired },
	// Full mode only: in quick mode the burst puts the trigger beside the Webhook node under load.
	{ id: 'intake', run: callbackIntake, fullOnly: true },
	{ id: 'intake-engine', run: expressionEngineIntake, fullOnly: true },
	{ id: 'intake-isolates', run: isolateDiagnosis, onRequest: true },
	// Full mode only, as large-delivery and memory: each restarts n8n for its measurements, about 45 s
	// of CI's time apiece. CI's end-to-end suite sends bursts and large deliveries
	// (burst.test.ts, large-deliveries.test.ts); the typecheck keeps their code compiling.
	{ id: 'burst', run: burst, fullOnly: true },
	// Starts an n8n of its own for the legacy engine (a diagnostic); its cells take minutes each at 1,000.
	{ id: 'resume-burst', run: resumeBurst, fullOnly: true },
	{ id: 'large-delivery', run: largeDelivery, fullOnly: true },
	{ id: 'memory', run: memory, fullOnly: true },
	// Starts a queue-mode cluster of its own besides the regular n8n.
	{ id: 'waiting', run: waitingAtScale },
	{ id: 'patterns', run: patterns },
	// The faults test at 1,000 deliveries a fault, on a stack cluster of its own (about 20 minutes).
	{ id: 'faults', run: faults, fullOnly: true },
];

function parseArgs(argv: string[]) {
	const quick = argv.includes('--quick');
	const cpuProf = argv.includes('--cpu-prof');
	const only = argv
		.find((arg) => arg.startsWith('--only='))
		?.slice('--only='.length)
		.split(',')
		.filter(Boolean);
	const unknown = only?.filter((id) => !BENCHES.some((bench) => bench.id === id)) ?? [];
	if (unknown.length) throw new Error(`unknown bench: ${unknown.join(', ')}`);
	const n8nEnv = Object.fromEntries(
		argv
			.filter((arg) => arg.startsWith('--n8n-env='))
			.map((arg) => {
				const [name, ...value] = arg.slice('--n8n-env='.length).split('=');
				return [name, value.join('=')];
			}),
	);
	const baseline = argv.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length);
	if (argv.includes('--baseline'))
		throw new Error('--baseline needs a value: --baseline=<git rev>');
	if (baseline !== undefined) {
		if (!baseline) throw new Error('--baseline needs a git revision, e.g. --baseline=main');
		const unpaired = only?.filter((id) => !BENCHES.find((bench) => bench.id === id)?.paired);
		if (unpaired?.length) {
			const paired = BENCHES.filter((bench) => bench.paired).map((bench) => bench.id);
			throw new Error(
				`no paired form with --baseline: ${unpaired.join(', ')} (those with one: ${paired.join(', ')})`,
			);
		}
	}
	const update = argv.includes('--update');
	if (update && (!only || baseline !== undefined || Object.keys(n8nEnv).length || cpuProf)) {
		throw new Error('--update needs --only, and neither --n8n-env, --cpu-prof nor --baseline');
	}
	return { quick, cpuProf, only, n8nEnv, baseline, update };
}

async function main() {
	const started = Date.now();
	const args = parseArgs(process.argv.slice(2));
	const selected = BENCHES.filter((bench) =>
		args.only
			? args.only.includes(bench.id)
			: args.baseline
				? bench.paired
				: !bench.onRequest && !(args.quick && bench.fullOnly),
	);
	const nodeOptions = args.cpuProf
		? `--cpu-prof --cpu-prof-dir=${path.join(benchArtifacts, 'profiles')}`
		: undefined;

	let env: BenchEnvironment | undefined;
	let baseline: { build: BaselineBuild; env?: BenchEnvironment } | undefined;
	const tree = args.baseline ? workingTree() : undefined;
	const results: BenchResult[] = [];
	const failures: Array<{ id: string; error: string }> = [];
	try {
		if (args.baseline) {
			const buildStarted = Date.now();
			baseline = { build: buildBaseline(args.baseline) };
			log(`baseline build: ${((Date.now() - buildStarted) / 1000).toFixed(1)} s`);
		}
		env = await startEnvironment({ nodeOptions, n8nEnv: args.n8nEnv });
		if (baseline) {
			log(`--- n8n with the baseline ${baseline.build.rev} (${baseline.build.describe})`);
			baseline.env = await startEnvironment({
				nodeOptions,
				n8nEnv: args.n8nEnv,
				tarball: baseline.build.tarball,
				name: 'bench-baseline',
			});
		}
		for (const bench of selected) {
			const benchStarted = Date.now();
			log(`--- ${bench.id}`);
			const loadBefore = os.loadavg()[0];
			try {
				const result =
					baseline?.env && tree && bench.paired
						? await bench.paired({
								env,
								quick: args.quick,
								baseline: { env: baseline.env, build: baseline.build },
								workingTree: tree,
							})
						: await bench.run({ env, quick: args.quick });
				// Others share the machine: the load says how quiet it was while this bench ran.
				result.params.loadAverage1m = [loadBefore, os.loadavg()[0]].map((l) => +l.toFixed(1));
				results.push(result);
			} catch (error) {
				// One broken bench must not hide the others' figures.
				log(`${bench.id} failed: ${(error as Error).stack ?? error}`);
				failures.push({ id: bench.id, error: (error as Error).message });
			}
			log(`${bench.id}: ${((Date.now() - benchStarted) / 1000).toFixed(1)} s`);
		}
	} finally {
		await env?.close();
		await baseline?.env?.close();
		baseline?.build.remove();
	}

	const extraArgs = [
		...(args.only ? [`--only=${args.only.join(',')}`] : []),
		...Object.entries(args.n8nEnv).map(([name, value]) => `--n8n-env=${name}=${value}`),
		...(args.cpuProf ? ['--cpu-prof'] : []),
		...(args.baseline ? [`--baseline=${args.baseline}`] : []),
		...(args.update ? ['--update'] : []),
	];
	// The variables that narrow a bench to some of its cells, or change them, are part of the command.
	const narrowing = Object.entries(process.env)
		.filter(([name]) => /^(BURST|RESUME)_(?!E2E_)/.test(name))
		.map(([name, value]) => `${name}=${value} `)
		.join('');
	const command = `${narrowing}${args.quick ? 'npm run bench:quick' : 'npm run bench'}`;
	const table = await writeResults(
		{
			mode: args.quick ? 'quick' : 'full',
			command: extraArgs.length ? `${command} -- ${extraArgs.join(' ')}` : command,
			startedAt: new Date(started).toISOString(),
			durationSeconds: Math.round((Date.now() - started) / 1000),
			machine: {
				cpus: os.cpus().length,
				cpuModel: os.cpus()[0]?.model ?? 'unknown',
				memoryGb: Math.round(os.totalmem() / 2 ** 30),
				node: process.version,
				n8n: n8nVersion,
			},
			n8nEnv: { ...BENCH_N8N_ENV, ...args.n8nEnv },
			...(baseline && tree
				? {
						baseline: {
							rev: baseline.build.rev,
							commit: baseline.build.commit,
							describe: baseline.build.describe,
							workingTree: tree,
						},
					}
				: {}),
			results,
			failures,
		},
		args.update ? 'update' : extraArgs.length > 0 ? 'diagnostic' : 'whole',
	);
	process.stdout.write(`\n${table}\n`);
	log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
	if (failures.length) process.exitCode = 1;
}

main().then(
	// Keep-alive sockets of fetch would hold the process open for a while.
	() => process.exit(process.exitCode ?? 0),
	(error) => {
		process.stderr.write(`${(error as Error).stack ?? error}\n`);
		process.exit(1);
	},
);
