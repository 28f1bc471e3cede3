import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

/**
 * n8n's execution custom data, as node code can reach it. Not the same door on every n8n:
 * - n8n 2.x: a `customData` getter on every node context (NodeExecutionContext in n8n-core, read
 *   in 2.41.1), which throws where the context has no execution behind it.
 * - n8n 1.x: no such getter; the store is `$execution.customData` through the data proxy in
 *   execute(), and in a webhook context only through `additionalKeys`, the keys its expressions get
 *   as `$execution` (tested on 1.123.81).
 */

/** The part of n8n's execution custom data that this package keeps values in. */
export interface ExecutionCustomData {
	set(key: string, value: string): void;
	get(key: string): string | undefined;
}

type ExecutionKeys = { $execution?: { customData?: unknown } };

/** Not part of n8n's interfaces: what n8n 1.x's node contexts give expressions as `$execution`. */
type WithAdditionalKeys = { additionalKeys?: ExecutionKeys };

function isStore(store: unknown): store is ExecutionCustomData {
	const candidate = store as Partial<ExecutionCustomData> | undefined;
	return typeof candidate?.set === 'function' && typeof candidate.get === 'function';
}

/** The context's own store (n8n 2.x); undefined on 1.x and where there is no execution. */
export function contextCustomData(context: object): ExecutionCustomData | undefined {
	try {
		const store = (context as { customData?: unknown }).customData;
		return isStore(store) ? store : undefined;
	} catch {
		// n8n 2.x throws when the context has no execution behind it.
		return undefined;
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
	const own = contextCustomData(context);
	if (own) return own;
	const { getWorkflowDataProxy } = context as {
		getWorkflowDataProxy?: (itemIndex: number) => ExecutionKeys;
	};
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
 * expression sandbox does not call into that object); the context's `additionalKeys` hold the
 * same store.
 */
export function readExecutionCustomData(
	context: IExecuteFunctions | IWebhookFunctions,
	key: string,
): string | undefined {
	const store = executionCustomData(context);
	if (store) return store.get(key);
	try {
		const fallback = (context as WithAdditionalKeys).additionalKeys?.$execution?.customData;
		return isStore(fallback) ? fallback.get(key) : undefined;
	} catch {
		return undefined;
	}
}
