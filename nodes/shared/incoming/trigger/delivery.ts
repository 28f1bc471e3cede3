import type {
	IDataObject,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	normalizePayload,
	payloadId,
	payloadOutcome,
	payloadRecords,
	recognizePayload,
	type Outcome,
	type PayloadKind,
} from '../callbackPayload';
import { unreadRequest } from '../../host/internals';
import { isObject } from '../../dataObject';
import { ENDPOINTS, type EndpointTable } from '../../endpoints';
import { callbackKeys, redactEchoedSecrets, SECRET_QUERY_PARAMETER } from '../../redact';
import { secretsMatch } from '../../secretsMatch';
import { LARGE_DELIVERY_LIMIT_MIB, type DeliveryOptions } from './options';
import { contentDigest, screenDelivery, type DeliveryMemory } from './recentDeliveries';

export interface DeliverySettings extends DeliveryOptions {
	/** What a delivery must carry; without it, any delivery is received. */
	secret?: SecretCheck;
	/** Kinds that start the workflow; empty means all. A payload whose kind cannot be told passes. */
	kinds: PayloadKind[];
	memory: DeliveryMemory;
	/** Fields every item of this trigger carries besides kind, id and outcome. */
	extraFields?: IDataObject;
	/** The endpoint table whose kinds are recognised; the package's own if unset. */
	endpoints?: EndpointTable;
}

/**
 * What both triggers do with a delivery: refuse one without the secret (401) or whose body is not
 * a non-empty JSON object (400), answer 200 to what is ignored or repeated (the service would
 * otherwise retry it for a day), and start the workflow with the delivery's items otherwise.
 */
export async function receiveDelivery(
	this: IWebhookFunctions,
	settings: DeliverySettings,
): Promise<IWebhookResponseData> {
	if (
		settings.secret &&
		!carriesSecret(settings.secret, this.getQueryData() as IDataObject, this.getHeaderData())
	) {
		return refuseDelivery.call(this, 401, 'Invalid or missing callback secret');
	}
	// Read only once the secret is known good: a stranger's big body is never read.
	const { body, refusal } = await readDeliveryBody.call(this);
	if (refusal) return refuseDelivery.call(this, refusal.status, refusal.message);
	if (!isDeliveryBody(body)) {
		return refuseDelivery.call(this, 400, 'The callback body must be a JSON object');
	}
	const delivery = readDelivery(body, {
		...settings,
		scope: `${this.getWorkflow().id}:${this.getNode().id}`,
	});
	if ('items' in delivery) {
		return {
			webhookResponse: { received: true },
			workflowData: [delivery.items.map((json) => ({ json }))],
		};
	}
	return { webhookResponse: { received: true, ...delivery } };
}

/** Whether a delivery's body is one the service sends: a JSON object with something in it. */
export function isDeliveryBody(body: unknown): body is IDataObject {
	return isObject(body) && Object.keys(body).length > 0;
}

/** What a received delivery comes to: the items it starts the workflow with, or why none. */
export type DeliveryReading =
	{ items: IDataObject[] } | { ignored: PayloadKind | Outcome } | { duplicate: true };

/**
 * The one reading of a delivery whose secret and body were found good, for the triggers and for
 * Scraping Delivery alike: its kind and the kinds filter, its outcome and Only Completed Results,
 * repeats remembered for `scope` (one workflow's node), and its items.
 */
export function readDelivery(
	body: IDataObject,
	settings: Omit<DeliverySettings, 'secret'> & { scope: string },
): DeliveryReading {
	const table = settings.endpoints ?? ENDPOINTS;
	const payload = redactEchoedSecrets(body, settings.endpoints && callbackKeys(table));
	const kind = recognizePayload(payload, table);
	// A payload whose shape is not known may be any kind: dropping it under a kind filter would lose
	// it for good (it was answered 200), so it starts the workflow as `unknown`.
	if (settings.kinds.length > 0 && kind !== 'unknown' && !settings.kinds.includes(kind)) {
		return { ignored: kind };
	}
	const outcome = payloadOutcome(payload);
	if (settings.completedOnly && outcome !== 'completed') return { ignored: outcome };
	const id = payloadId(payload, table);
	const digest = contentDigest(payload);
	let redelivery: IDataObject = {};
	if (id !== undefined && settings.dedupe) {
		const screening = screenDelivery(
			settings.scope,
			`${kind}:${id}`,
			digest,
			settings.dedupeWindow,
			settings.memory,
		);
		if (screening.repeat) return { duplicate: true };
		redelivery = screening.marks;
	}
	const head = {
		kind,
		id: id ?? null,
		...settings.extraFields,
		outcome,
		deliveryKey: deliveryKey(kind, id, digest),
		...redelivery,
	};
	return { items: deliveryItems(kind, payload, head, settings.splitResults, table) };
}

const SECRET_HEADER = 'x-callback-secret';

export type SecretLocation = 'query' | 'header';

/** What a delivery must carry to be received: the secret, and where the sender puts it. */
export interface SecretCheck {
	expected: string;
	location: SecretLocation;
}

/**
 * Whether a delivery carries the expected secret where it is looked for: the query of its address
 * or its header (the header names as n8n gives them, in lower case).
 */
export function carriesSecret(
	{ expected, location }: SecretCheck,
	query: IDataObject,
	headers: IDataObject,
): boolean {
	const given = location === 'header' ? headers[SECRET_HEADER] : query[SECRET_QUERY_PARAMETER];
	return secretsMatch(given, expected);
}

/** `url` with `secret` in its query, the one place the service sends back as given. */
export function withSecretQuery(url: string, secret: string): string {
	const separator = url.includes('?') ? '&' : '?';
	return `${url}${separator}${SECRET_QUERY_PARAMETER}=${secret}`;
}

const LARGE_DELIVERY_LIMIT_BYTES = LARGE_DELIVERY_LIMIT_MIB * 1024 * 1024;

type DeliveryBody =
	| { body: unknown; refusal?: undefined }
	| { body?: undefined; refusal: { status: number; message: string } };

/** The delivery's body: as n8n parsed it, or read here when n8n left it unread. */
async function readDeliveryBody(this: IWebhookFunctions): Promise<DeliveryBody> {
	const request = unreadRequest(this);
	if (!request) return { body: this.getBodyData() };

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

/** The one webhook of a trigger: the service POSTs its deliveries to it. */
export function deliveryWebhook(
	path: string,
	extra: Partial<IWebhookDescription> = {},
): IWebhookDescription {
	return {
		...extra,
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		// Without it n8n answers with the literal text "firstEntryJson" instead of the node's answer.
		responseData: '',
		path,
	};
}

/** Answers a delivery with an error status; it starts nothing. */
function refuseDelivery(
	this: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	this.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

/**
 * What a trigger starts its workflow with: one item carrying the payload, or with Split Results
 * one per record. A delivery without records (a failed job, or a completed one that found nothing
 * new) still comes out as one item, so the delivery and its ID are seen. Every item carries
 * `recordCount` and a `deliveryKey` that is the same whenever the same content is delivered again
 * (on every record of it with Split Results: n8n's Remove Duplicates node keeps or drops the items
 * of one key together), so that node can drop repeats across executions and processes.
 */
function deliveryItems(
	kind: PayloadKind,
	payload: IDataObject,
	head: IDataObject & { outcome: Outcome; deliveryKey: string },
	splitResults: boolean,
	table: EndpointTable,
): IDataObject[] {
	const normalized = normalizePayload(kind, payload);
	const records = payloadRecords(normalized, table) ?? [];
	const counted = { ...head, recordCount: records.length };
	if (splitResults && records.length > 0) return records.map((record) => ({ ...counted, record }));
	return [{ ...counted, payload: normalized }];
}

/** The key of one delivery: its kind and ID, and a digest of its content. */
function deliveryKey(kind: PayloadKind, id: string | undefined, digest: string): string {
	return `${kind}:${id ?? ''}:${digest}`;
}
