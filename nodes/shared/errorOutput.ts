import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorOutputTakesDetails } from './host/internals';

/** Whether the node's "On Error" setting is "Continue (using error output)". */
export function usesErrorOutput(node: INode): boolean {
	return node.onError === 'continueErrorOutput';
}

/**
 * A failed item's JSON for the error output. n8n moves an item there only when its JSON holds
 * nothing but `error`, `message` and `details` (n8n 1.x: no `details`; `errorOutputTakesDetails`
 * in host/internals.ts tells them apart), and merges it over the input item it is linked to
 * (`handleNodeErrorOutput`, n8n-core). Setting the item's own `error` would move it
 * too, but n8n then replaces its JSON with the message alone (`normalizeNodeErrors`), losing the
 * service's description and HTTP code.
 */
export function errorOutputJson(
	context: IExecuteFunctions | IWebhookFunctions,
	error: string,
	message: string | undefined,
	details: IDataObject,
): IDataObject {
	const json: IDataObject = { error, message: message || error };
	if (errorOutputTakesDetails(context)) json.details = details;
	return json;
}

/**
 * A failed item's JSON where the node's On Error setting sends it: `flat` (with its `error`)
 * beside the other items, or the error output's shape with `details` instead.
 */
export function failedItemJson(
	context: IExecuteFunctions,
	flat: IDataObject & { error: string },
	message: string | undefined,
	details: IDataObject,
): IDataObject {
	if (!usesErrorOutput(context.getNode())) return flat;
	return errorOutputJson(context, flat.error, message, details);
}

/**
 * A failed item in its input item's place. With "Continue (regular output)" it stays flat beside
 * the others: `error`, `errorDescription`, `httpCode` and `extra`. With "Continue (using error
 * output)" it takes the shape n8n sends to the error output (errorOutput.ts): `error`, the
 * description as `message`, and the rest under `details` (n8n 2.x).
 */
export function errorItem(
	this: IExecuteFunctions,
	error: Error,
	itemIndex: number,
	extra: IDataObject = {},
): INodeExecutionData {
	const description =
		(error instanceof NodeApiError || error instanceof NodeOperationError) && error.description
			? error.description
			: undefined;
	const httpCode = error instanceof NodeApiError && error.httpCode ? error.httpCode : undefined;
	const flat: IDataObject & { error: string } = { ...extra, error: error.message };
	if (description) flat.errorDescription = description;
	if (httpCode) flat.httpCode = httpCode;
	const details: IDataObject = httpCode ? { ...extra, httpCode } : extra;
	return {
		json: failedItemJson(this, flat, description, details),
		pairedItem: { item: itemIndex },
	};
}
