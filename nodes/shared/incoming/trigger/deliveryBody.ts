import type { IDataObject, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

/** The most this package reads of a delivery that n8n left unread (see `largeDeliveriesOption`). */
export const LARGE_DELIVERY_LIMIT_MIB = 128;
const LARGE_DELIVERY_LIMIT_BYTES = LARGE_DELIVERY_LIMIT_MIB * 1024 * 1024;

/**
 * n8n reads a webhook's JSON body itself, up to N8N_PAYLOAD_SIZE_MAX (16 MiB by default, fixed on
 * n8n Cloud), and answers 500 above it before any node code runs: a review job's first crawl can
 * be bigger, and the service gives up after three retries, so its reviews would be lost. n8n leaves
 * the body unread for a start node of type version 1 whose `options.binaryData` is set (the
 * Webhook node's raw-body switch), which is why this option has that name; the trigger then reads
 * the body itself, up to its own limit.
 */
export const largeDeliveriesOption: INodeProperties = {
	displayName: 'Receive Large Deliveries',
	name: 'binaryData',
	type: 'boolean',
	default: true,
	description: `Whether this trigger reads deliveries itself, up to ${LARGE_DELIVERY_LIMIT_MIB} MiB, instead of leaving them to n8n, which refuses any body bigger than N8N_PAYLOAD_SIZE_MAX (16 MiB by default, about 20,000 reviews) and so loses a big review job`,
};

export type DeliveryBody =
	| { body: unknown; refusal?: undefined }
	| { body?: undefined; refusal: { status: number; message: string } };

interface UnreadRequest extends AsyncIterable<Buffer> {
	headers: Record<string, string | string[] | undefined>;
	readable?: boolean;
	readableEnded?: boolean;
	rawBody?: unknown;
	body?: unknown;
	destroy?: () => void;
}

/** The delivery's body: as n8n parsed it, or read here when n8n left it unread. */
export async function readDeliveryBody(this: IWebhookFunctions): Promise<DeliveryBody> {
	const request = this.getRequestObject() as unknown as UnreadRequest;
	const unread =
		request.body === undefined &&
		request.rawBody === undefined &&
		request.readable === true &&
		request.readableEnded !== true;
	if (!unread) return { body: this.getBodyData() };

	const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
	if (encoding !== 'identity') {
		return refusal(415, `Content-Encoding "${encoding}" is not accepted; send the JSON as is`);
	}
	const tooLarge = refusal(
		413,
		`The delivery is bigger than this trigger's limit of ${LARGE_DELIVERY_LIMIT_MIB} MiB`,
	);
	if (Number(request.headers['content-length']) > LARGE_DELIVERY_LIMIT_BYTES) return tooLarge;

	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of request) {
			size += chunk.length;
			if (size > LARGE_DELIVERY_LIMIT_BYTES) {
				request.destroy?.();
				return tooLarge;
			}
			chunks.push(chunk);
		}
	} catch {
		// The sender went away mid-body; what arrived is not the delivery, and it will send again.
		return refusal(400, 'The delivery was cut off before its end');
	}
	let text = Buffer.concat(chunks, size).toString('utf8');
	chunks.length = 0;
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	try {
		return { body: JSON.parse(text) as IDataObject };
	} catch {
		return refusal(400, 'The callback body must be a JSON object');
	}
}

function refusal(status: number, message: string): DeliveryBody {
	return { refusal: { status, message } };
}
