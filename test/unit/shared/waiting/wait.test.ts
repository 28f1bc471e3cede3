import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import {
	claimResumeUrl,
	MANY_PROFILES_GUIDE,
	WAITS_IN_TURN_HINT_FROM,
} from '../../../../nodes/shared/waiting/wait';

/** What claimResumeUrl reads of its context, for the run of the node `runIndex` in one execution. */
function context(runIndex: number, hints: NodeExecutionHint[]): IExecuteFunctions {
	const customData = new Map<string, string>();
	return {
		getInputData: () => [{ json: {} }],
		getNode: () => ({ id: 'node-1', name: 'Review Scraper', typeVersion: 1.2 }),
		evaluateExpression: () => 'http://127.0.0.1:5678/webhook-waiting/7?signature=abc',
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		customData: {
			set: (key: string, value: string) => customData.set(key, value),
			get: (key: string) => customData.get(key),
		},
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
	} as unknown as IExecuteFunctions;
}

describe('Wait for Completion in a loop', () => {
	it(`says nothing for the first ${WAITS_IN_TURN_HINT_FROM - 1} waits of one execution`, () => {
		const hints: NodeExecutionHint[] = [];
		for (let run = 0; run < WAITS_IN_TURN_HINT_FROM - 1; run++) {
			expect(claimResumeUrl.call(context(run, hints), 0)).toContain('/webhook-waiting/7/node-1?');
		}
		expect(hints).toEqual([]);
	});

	it('from then on, points to the measured guide for many profiles in the output panel', () => {
		const hints: NodeExecutionHint[] = [];
		claimResumeUrl.call(context(WAITS_IN_TURN_HINT_FROM - 1, hints), 0);
		expect(hints).toEqual([expect.objectContaining({ type: 'info', location: 'outputPane' })]);
		expect(hints[0].message).toContain(`waited ${WAITS_IN_TURN_HINT_FROM} times`);
		expect(hints[0].message).toContain(MANY_PROFILES_GUIDE);
		expect(MANY_PROFILES_GUIDE.endsWith('docs/many-profiles.md')).toBe(true);
	});
});
