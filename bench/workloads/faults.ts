import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { artifactsDir, repoRoot } from '../../test/e2e/harness/paths';
import type { BenchContext, BenchResult, Row } from '../lib/result';
import { log } from '../lib/rounds';

const DELIVERIES = 1000;
const report = path.join(artifactsDir, 'queue', 'faults.json');

interface FaultFigures {
	deliveries: number;
	answered2xx: number;
	answeredOtherwise: Record<string, number>;
	succeeded: number;
	crashed: number;
	retried: number;
	executionsTwice: number;
	handledTwice: number;
	/** The example's catch-up: jobs it read again from the service, and those it brought back. */
	caughtUp: { readAgain: number; brought: number };
	/** Acknowledged deliveries n8n failed after answering them (their data replaced, or stalled). */
	lostByN8n: number;
	/** Jobs handled twice whose first execution n8n failed after Handle Results (handled again). */
	handledTwiceAfterFailure: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const otherwise = (answers: Record<string, number>) => {
	const entries = Object.entries(answers);
	if (entries.length === 0) return '0';
	const total = entries.reduce((sum, [, n]) => sum + n, 0);
	const each = entries.map(([status, n]) => `${n} × ${status === '0' ? 'no answer' : status}`);
	return `${count(total)} (${each.join(', ')})`;
};

/**
 * The faults test (test/e2e-queue/faults.test.ts) at 1,000 deliveries a fault: the production
 * stack's twin on a cluster of its own, each fault during a stream of deliveries to the "each
 * result handled once, none lost" example, then its catch-up. A row per fault, from the test's own
 * report; the test's assertions (every job handled, none twice) decide "met".
 */
export async function faults(_context: BenchContext): Promise<BenchResult> {
	rmSync(report, { force: true });
	log(`faults: the faults test at ${DELIVERIES} deliveries a fault (about 20 minutes)`);
	const run = spawnSync(
		'npx',
		[
			'jest',
			'test/e2e-queue/faults.test.ts',
			'--selectProjects',
			'e2e-queue',
			'--runInBand',
			'--testTimeout=1800000',
			'--forceExit',
		],
		{
			cwd: repoRoot,
			env: { ...process.env, FAULT_TEST_DELIVERIES: String(DELIVERIES) },
			stdio: 'inherit',
		},
	);
	const figures = JSON.parse(readFileSync(report, 'utf8')) as Record<string, FaultFigures>;
	const passed = run.status === 0;
	const rows: Row[] = Object.entries(figures).map(([fault, f]) => ({
		measure: fault,
		a: {
			label: 'answered 2xx / otherwise',
			value: `${count(f.answered2xx)} of ${count(f.deliveries)} / ${otherwise(f.answeredOtherwise)}`,
		},
		b: {
			label:
				'succeeded, crashed, retried; lost by n8n (read again by the catch-up); handled twice (after an execution n8n failed)',
			value:
				`${count(f.succeeded)}, ${f.crashed}, ${f.retried}; ${f.lostByN8n} (${f.caughtUp.readAgain}); ` +
				`${f.handledTwice} (${f.handledTwiceAfterFailure})`,
		},
		goal: 'every job handled; none twice, but what n8n failed between handling and marking',
		met: passed && f.handledTwice === f.handledTwiceAfterFailure,
	}));
	return {
		id: 'faults',
		title: `Faults during a stream of ${count(DELIVERIES)} deliveries (the production stack's twin)`,
		params: { deliveries: DELIVERIES, senders: 8 },
		rows,
		notes: [
			'From test/e2e-queue/faults.test.ts (its report, test-artifacts/queue/faults.json); ' +
				`the test ${passed ? 'passed' : `failed (exit ${run.status})`}.`,
		],
		raw: figures as unknown as Record<string, unknown>,
	};
}
