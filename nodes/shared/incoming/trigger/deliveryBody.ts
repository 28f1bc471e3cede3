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
	const declared = Number(request.headers['content-length']);
	if (declared > LARGE_DELIVERY_LIMIT_BYTES) return tooLarge;

	const body = new BodyBuffer(declared);
	try {
		for await (const chunk of request) {
			if (body.size + chunk.length > LARGE_DELIVERY_LIMIT_BYTES) {
				request.destroy?.();
				return tooLarge;
			}
			body.append(chunk);
		}
	} catch {
		// The sender went away mid-body; what arrived is not the delivery, and it will send again.
		return refusal(400, 'The delivery was cut off before its end');
	}
	const text = body.text();
	try {
		return { body: JSON.parse(text) as IDataObject };
	} catch {
		return refusal(400, 'The callback body must be a JSON object');
	}
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The bytes of a body as they arrive. With its length announced (the usual case) they are copied
 * into one buffer of that length, so the chunks are not held until the end and then copied again;
 * otherwise, or past that length, the chunks are kept and joined once.
 */
class BodyBuffer {
	size = 0;
	private whole: Buffer | undefined;
	private chunks: Buffer[] = [];

	constructor(declared: number) {
		if (Number.isSafeInteger(declared) && declared > 0) this.whole = Buffer.allocUnsafe(declared);
	}

	append(chunk: Buffer): void {
		if (this.whole && this.size + chunk.length <= this.whole.length) {
			chunk.copy(this.whole, this.size);
		} else {
			if (this.whole) this.chunks.push(this.whole.subarray(0, this.size));
			this.whole = undefined;
			this.chunks.push(chunk);
		}
		this.size += chunk.length;
	}

	/** The body decoded as UTF-8 without a leading byte order mark; the bytes are let go. */
	text(): string {
		const bytes = this.whole
			? this.whole.subarray(0, this.size)
			: Buffer.concat(this.chunks, this.size);
		this.whole = undefined;
		this.chunks = [];
		const start = UTF8_BOM.every((byte, index) => bytes[index] === byte) ? UTF8_BOM.length : 0;
		return bytes.toString('utf8', start);
	}
}

function refusal(status: number, message: string): DeliveryBody {
	return { refusal: { status, message } };
}
