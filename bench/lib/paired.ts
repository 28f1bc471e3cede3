import type { PairedContext } from './baseline';
import type { BenchEnvironment } from './instance';
import { cell, median, ratioCell, type BenchResult, type Row } from './result';
import { alternate, log, pairwise } from './rounds';

/** One n8n's side of a paired bench, deployed and warmed up, ready for timed runs. */
export interface PairedSide<S> {
	/** A timed run of the package's node. */
	node(): Promise<S>;
	/** A timed run of n8n's own nodes doing the same work: no code of the package. */
	reference(): Promise<S>;
	/** Said in the notes, e.g. what was checked of the requests sent. */
	note?: string;
	done(): void;
}

export interface PairedBench<S> {
	id: string;
	title: string;
	params: Record<string, unknown>;
	rounds: number;
	nodeName: string;
	referenceName: string;
	/** Deploys the bench's workflows in one n8n and checks them (counts, requests). */
	setup(env: BenchEnvironment): Promise<PairedSide<S>>;
	ms(sample: S): number;
	describe(sample: S): string;
	/** The bench's own figure (e.g. node / HTTP Request), computed per build. */
	ownRatio: { label: string; of(node: S, reference: S): number };
	notes?: string[];
}

/** Working tree / baseline: at most 5 % slower (issue 29, point 7). */
export const BASELINE_GOAL = 1.05;

/**
 * The working tree's build and the baseline's, each in its own n8n, measured side by side: every
 * round runs the package's node on both instances, one right after the other, then the reference
 * the same way; the build that goes first alternates from round to round. The reference's ratio
 * between the instances is the control: the same n8n code on both, so it says how much of a
 * difference the instances make by themselves. As both pairs run in the same order, a drift of
 * the machine's load within a round moves both ratios alike, and dividing one by the other takes
 * it out too.
 */
export async function pairedRun<S>(
	context: PairedContext,
	bench: PairedBench<S>,
): Promise<BenchResult> {
	const { baseline, workingTree } = context;
	const base = `baseline ${baseline.build.rev} (${baseline.build.commit.slice(0, 7)})`;
	const sides: Array<PairedSide<S>> = [];
	try {
		log(`${bench.id}: setting up on the working tree's n8n`);
		sides.push(await bench.setup(context.env));
		log(`${bench.id}: setting up on the baseline's n8n`);
		sides.push(await bench.setup(baseline.env));
		const [mine, theirs] = sides;
		// Even: each build goes first in as many rounds as the other.
		const rounds = bench.rounds + (bench.rounds % 2);
		log(`${bench.id} paired with ${base}: ${rounds} rounds`);
		const [nodeA, referenceA, nodeB, referenceB] = await alternate(
			rounds,
			[
				{ name: `working tree: ${bench.nodeName}`, run: () => mine.node() },
				{ name: `working tree: ${bench.referenceName}`, run: () => mine.reference() },
				{ name: `baseline: ${bench.nodeName}`, run: () => theirs.node() },
				{ name: `baseline: ${bench.referenceName}`, run: () => theirs.reference() },
			],
			bench.describe,
			(round) => (round % 2 === 0 ? [0, 2, 1, 3] : [2, 0, 3, 1]),
		);
		const ms = (samples: S[]) => samples.map(bench.ms);
		const timeRatio = (a: S, b: S) => bench.ms(a) / bench.ms(b);
		const nodeRatios = pairwise(nodeA, nodeB, timeRatio);
		const referenceRatios = pairwise(referenceA, referenceB, timeRatio);
		const ownA = pairwise(nodeA, referenceA, bench.ownRatio.of);
		const ownB = pairwise(nodeB, referenceB, bench.ownRatio.of);
		// The node's ratio with the instances' own difference (the control's, same round) taken out.
		const corrected = nodeRatios.map((ratio, i) => ratio / referenceRatios[i]);
		const rows: Row[] = [
			{
				measure: `${bench.nodeName}: wall time, working tree vs baseline; ratio A/B`,
				a: cell('working tree', ms(nodeA), 'ms'),
				b: cell('baseline', ms(nodeB), 'ms'),
				ratio: ratioCell(nodeRatios),
				goal: `≤ ${BASELINE_GOAL.toFixed(2)}×`,
				met: median(nodeRatios) <= BASELINE_GOAL,
			},
			{
				measure: `control: ${bench.referenceName} (no code of the package) on each n8n; ratio A/B`,
				a: cell('working tree', ms(referenceA), 'ms'),
				b: cell('baseline', ms(referenceB), 'ms'),
				ratio: ratioCell(referenceRatios),
				met: null,
			},
			{
				measure: `the bench's own ratio, ${bench.ownRatio.label}, per build; ratio: the first row's A/B ÷ the control's`,
				a: { label: 'working tree', value: ratioCell(ownA) },
				b: { label: 'baseline', value: ratioCell(ownB) },
				ratio: ratioCell(corrected),
				met: null,
			},
		];
		return {
			id: bench.id,
			title: `${bench.title}, working tree vs baseline`,
			params: {
				...bench.params,
				rounds,
				workingTree,
				baseline: {
					rev: baseline.build.rev,
					commit: baseline.build.commit,
					describe: baseline.build.describe,
				},
			},
			rows,
			notes: [
				"Each build in its own n8n, both running throughout; every round runs the node on both n8n one after the other, then the reference, the working tree's first in odd rounds, the baseline's in even ones.",
				...(mine.note === theirs.note
					? mine.note
						? [`both builds: ${mine.note}`]
						: []
					: [`working tree: ${mine.note ?? ''}`, `baseline: ${theirs.note ?? ''}`]),
				...(bench.notes ?? []),
			],
			raw: {
				nodeA,
				nodeB,
				referenceA,
				referenceB,
				nodeRatios,
				referenceRatios,
				corrected,
				ownA,
				ownB,
			},
		};
	} finally {
		for (const side of sides) side.done();
	}
}
