import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The part of n8n's execution custom data that Wait for Completion keeps its job ID in. */
export interface ExecutionCustomData {
	set(key: string, value: string): void;
	get(key: string): string | undefined;
}

/** The oldest n8n that Wait for Completion is tested on (README, compatibility table). */
export const WAIT_FOR_COMPLETION_MIN_N8N = '2.41.1';

/**
 * The execution's custom data as n8n 2.x offers it to nodes, or undefined where this n8n does not:
 * n8n 1.x has no `customData` on its node contexts, and n8n 2.x throws when the context has no
 * execution behind it.
 */
export function executionCustomData(
	context: IExecuteFunctions | IWebhookFunctions,
): ExecutionCustomData | undefined {
	let store: Partial<ExecutionCustomData> | undefined;
	try {
		store = (context as { customData?: Partial<ExecutionCustomData> }).customData;
	} catch {
		return undefined;
	}
	return typeof store?.set === 'function' && typeof store.get === 'function'
		? (store as ExecutionCustomData)
		: undefined;
}

/**
 * Wait for Completion keeps the submitted ID in the execution's custom data, which n8n 1.x does not
 * offer to nodes (nor does it let a resumed node fail), so it is refused before anything is sent.
 */
export function requireExecutionCustomData(
	this: IExecuteFunctions,
	itemIndex: number,
): ExecutionCustomData {
	const store = executionCustomData(this);
	if (store) return store;
	throw new NodeOperationError(
		this.getNode(),
		`Wait for Completion needs n8n ${WAIT_FOR_COMPLETION_MIN_N8N} or newer`,
		{
			itemIndex,
			description:
				'This n8n (1.x) gives nodes no execution custom data to wait on, so nothing was sent. Update n8n, or turn Wait for Completion off and receive the results with a Scraping Callback Trigger.',
		},
	);
}
