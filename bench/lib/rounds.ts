export interface Variant<S> {
	name: string;
	run(round: number): Promise<S>;
}

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/**
 * Runs every variant once per round, the starting variant rotating from round to round, so drift
 * in the machine's load (it is shared) falls on all variants alike instead of on the one run last.
 * `order` replaces the rotation: the indexes of the variants in the order a round runs them.
 */
export async function alternate<S>(
	rounds: number,
	variants: Array<Variant<S>>,
	describe: (sample: S) => string,
	order: (round: number) => number[] = (round) =>
		variants.map((_, k) => (round + k) % variants.length),
): Promise<S[][]> {
	const samples: S[][] = variants.map(() => []);
	for (let round = 0; round < rounds; round++) {
		for (const index of order(round)) {
			const sample = await variants[index].run(round);
			samples[index].push(sample);
			log(`  round ${round + 1}/${rounds} ${variants[index].name}: ${describe(sample)}`);
		}
	}
	return samples;
}

/** Per-round ratios: each round's pair was measured side by side, so their ratio is the sample. */
export function pairwise<S>(a: S[], b: S[], ratio: (a: S, b: S) => number): number[] {
	return a.map((sample, i) => ratio(sample, b[i]));
}
