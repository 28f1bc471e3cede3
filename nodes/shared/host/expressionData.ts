import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * What this package reads about the execution through n8n's expression data rather than a method
 * of the node context (read in 2.41.1; the same on 1.123.81).
 */

/**
 * This execution's resume URL, `$execution.resumeUrl`. Community nodes get this, not
 * `getSignedResumeUrl()`, which n8n accepts only for its own send-and-wait nodes; on 2.x it carries
 * n8n's `signature`, on 1.x it is `/webhook-waiting/<execution id>` alone.
 */
export function executionResumeUrl(context: IExecuteFunctions, itemIndex: number): string {
	return String(context.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
}

/** How many times this node has run before in this execution (`$runIndex`): 0 the first time. */
export function nodeRunIndex(context: IExecuteFunctions, itemIndex: number): number {
	return Number(context.getWorkflowDataProxy(itemIndex).$runIndex);
}
