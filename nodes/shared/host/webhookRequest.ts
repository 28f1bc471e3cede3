import type { IWebhookFunctions } from 'n8n-workflow';

/** A webhook request whose body is still on the wire, to be read as a stream of chunks. */
export interface UnreadRequest extends AsyncIterable<Buffer> {
	headers: Record<string, string | string[] | undefined>;
	destroy?: () => void;
}

/** Not part of n8n's interfaces: the Node.js request behind `getRequestObject()`, as n8n left it. */
interface RequestAsReceived extends UnreadRequest {
	readable?: boolean;
	readableEnded?: boolean;
	rawBody?: unknown;
	body?: unknown;
}

/**
 * The request, when n8n left its body unread; undefined when n8n read it (`getBodyData()` holds
 * it then). n8n parses a webhook's body before any node code runs, except for a start node of type
 * version 1 whose `options.binaryData` is set (`parseRequestBody` in n8n's webhook-helpers, read in
 * 2.41.1; the same switch on 1.123.81): the stream is then untouched, with neither `body` nor
 * `rawBody` set.
 */
export function unreadRequest(context: IWebhookFunctions): UnreadRequest | undefined {
	const request = context.getRequestObject() as unknown as RequestAsReceived;
	const unread =
		request.body === undefined &&
		request.rawBody === undefined &&
		request.readable === true &&
		request.readableEnded !== true;
	return unread ? request : undefined;
}
