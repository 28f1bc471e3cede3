import type { Simulator } from '../../../simulator/server';
import type { N8nClient, WorkflowNode } from './client';
import { n8nVersion } from './paths';
import { runThroughWebhook } from './workflows';

/**
 * Wait for Completion keeps the submitted ID in the execution's custom data, which n8n 1.x does not
 * give to nodes: there the node refuses it (nodes/shared/executionCustomData.ts).
 */
export const waitForCompletionAvailable = n8nMajor() >= 2;

export function n8nMajor(): number {
	return Number(n8nVersion.split('.')[0]);
}

/**
 * Where Wait for Completion is not available, runs `node` once and asserts that it is refused with
 * the n8n version it needs and that nothing reached the service; returns whether it did, so that a
 * Wait for Completion test can end there (`if (await refusedWithoutWait(…)) return;`).
 */
export async function refusedWithoutWait(
	client: N8nClient,
	simulator: Simulator,
	node: WorkflowNode,
): Promise<boolean> {
	if (waitForCompletionAvailable) return false;
	const { onError: _onError, continueOnFail: _continueOnFail, ...failing } = node;
	const before = simulator.requests().length;
	const run = await runThroughWebhook(
		client,
		`e2e wait refused on n8n ${n8nVersion}`,
		[failing],
		{},
		{
			respond: 'onReceived',
			timeoutMs: 30_000,
		},
	);
	expect(run.execution.status).toBe('error');
	expect(run.run(node.name).error?.message).toBe('Wait for Completion needs n8n 2.41.1 or newer');
	expect(simulator.requests().slice(before)).toEqual([]);
	return true;
}
