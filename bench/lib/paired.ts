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
 * round runs the package's node and the reference on both instances. The order keeps the two
 * builds of one workflow two places apart, so that, as the start rotates, each goes first in
 * half the rounds. The reference's ratio between the instances is the control: the same n8n code
 * on both, so it says how much of a difference the instances make by themselves.
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
		log(`${bench.id} paired with ${base}: ${bench.rounds} rounds`);
		const [nodeA, referenceA, nodeB, referenceB] = await alternate(
			bench.rounds,
			[
				{ name: `working tree: ${bench.nodeName}`, run: () => mine.node() },
				{ name: `working tree: ${bench.referenceName}`, run: () => mine.reference() },
				{ name: `baseline: ${bench.nodeName}`, run: () => theirs.node() },
				{ name: `baseline: ${bench.referenceName}`, run: () => theirs.reference() },
			],
			bench.describe,
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
				rounds: bench.rounds,
				workingTree,
				baseline: {
					rev: baseline.build.rev,
					commit: baseline.build.commit,
					describe: baseline.build.describe,
				},
			},
			rows,
			notes: [
				'Each build in its own n8n, both running throughout; every round runs both workflows on both n8n, the first of the four rotating.',
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
