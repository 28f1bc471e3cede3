import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The part of n8n's execution custom data that Wait for Completion keeps its job ID in. */
export interface ExecutionCustomData {
	set(key: string, value: string): void;
	get(key: string): string | undefined;
}

function isStore(store: unknown): store is ExecutionCustomData {
	const candidate = store as Partial<ExecutionCustomData> | undefined;
	return typeof candidate?.set === 'function' && typeof candidate.get === 'function';
}

/** n8n 1.x reaches custom data through `$execution`: the data proxy in execute(). */
type WithDataProxy = {
	getWorkflowDataProxy?: (itemIndex: number) => { $execution?: { customData?: unknown } };
};

/** Not part of n8n's interfaces: what n8n 1.x's node contexts give expressions as `$execution`. */
type WithAdditionalKeys = { additionalKeys?: { $execution?: { customData?: unknown } } };

/** Whether this n8n gives the node context its own store (2.x), where the resume rules differ too. */
export function hasContextCustomData(context: IExecuteFunctions | IWebhookFunctions): boolean {
	try {
		return isStore((context as { customData?: unknown }).customData);
	} catch {
		// n8n 2.x throws when the context has no execution behind it.
		return false;
	}
}

/**
 * The execution's custom data: the context's own store on n8n 2.x, `$execution.customData` through
 * the data proxy on n8n 1.x; undefined where neither exists (no execution behind the context).
 */
export function executionCustomData(
	context: IExecuteFunctions | IWebhookFunctions,
	itemIndex = 0,
): ExecutionCustomData | undefined {
	if (hasContextCustomData(context)) {
		return (context as unknown as { customData: ExecutionCustomData }).customData;
	}
	const { getWorkflowDataProxy } = context as WithDataProxy;
	if (typeof getWorkflowDataProxy !== 'function') return undefined;
	try {
		const store = getWorkflowDataProxy.call(context, itemIndex).$execution?.customData;
		return isStore(store) ? store : undefined;
	} catch {
		return undefined;
	}
}

/**
 * One custom data value, in any context that can read it. n8n 1.x's webhook context has no data
 * proxy, and an expression calling `$execution.customData.get()` there gives undefined (its
 * expression sandbox does not call into that object); the context's `additionalKeys`, which
 * expressions are given as `$execution`, hold the same store.
 */
export function readExecutionCustomData(
	context: IExecuteFunctions | IWebhookFunctions,
	key: string,
): string | undefined {
	const store = executionCustomData(context);
	if (store) return store.get(key);
	try {
		const keys = (context as WithAdditionalKeys).additionalKeys;
		const fallback = keys?.$execution?.customData;
		return isStore(fallback) ? fallback.get(key) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Wait for Completion keeps the submitted ID in the execution's custom data; without it (a context
 * with no execution behind it) the node cannot wait, so it is refused before anything is sent.
 */
export function requireExecutionCustomData(
	this: IExecuteFunctions,
	itemIndex: number,
): ExecutionCustomData {
	const store = executionCustomData(this, itemIndex);
	if (store) return store;
	throw new NodeOperationError(
		this.getNode(),
		"Wait for Completion needs the execution's custom data, which this run does not have",
		{
			itemIndex,
			description:
				'Nothing was sent. Turn Wait for Completion off and receive the results with a Scraping Callback Trigger.',
		},
	);
}
