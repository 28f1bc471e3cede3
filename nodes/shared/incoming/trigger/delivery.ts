import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { payloadId, payloadOutcome, recognizePayload, type PayloadKind } from '../callbackPayload';
import { isObject } from '../../json';
import { redactEchoedSecrets } from '../../redact';
import { readDeliveryBody } from './deliveryBody';
import { deliveryItems, deliveryKey } from './items';
import type { DeliveryOptions } from './options';
import { contentDigest, screenDelivery, type DeliveryMemory } from './recentDeliveries';
import { carriesSecret, type SecretCheck } from './secret';
import { refuseDelivery } from './webhook';

export interface DeliverySettings extends DeliveryOptions {
	/** What a delivery must carry; without it, any delivery is received. */
	secret?: SecretCheck;
	/** Kinds that start the workflow; empty means all. A payload whose kind cannot be told passes. */
	kinds: PayloadKind[];
	memory: DeliveryMemory;
	/** Fields every item of this trigger carries besides kind, id and outcome. */
	extraFields?: IDataObject;
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
	if (settings.secret && !carriesSecret.call(this, settings.secret)) {
		return refuseDelivery.call(this, 401, 'Invalid or missing callback secret');
	}
	// Read only once the secret is known good: a stranger's big body is never read.
	const { body, refusal } = await readDeliveryBody.call(this);
	if (refusal) return refuseDelivery.call(this, refusal.status, refusal.message);
	if (!isObject(body) || Object.keys(body).length === 0) {
		return refuseDelivery.call(this, 400, 'The callback body must be a JSON object');
	}
	const payload = redactEchoedSecrets(body);
	const kind = recognizePayload(payload);
	// A payload whose shape is not known may be any kind: dropping it under a kind filter would lose
	// it for good (it was answered 200), so it starts the workflow as `unknown`.
	if (settings.kinds.length > 0 && kind !== 'unknown' && !settings.kinds.includes(kind)) {
		return { webhookResponse: { received: true, ignored: kind } };
	}
	const outcome = payloadOutcome(payload);
	if (settings.completedOnly && outcome !== 'completed') {
		return { webhookResponse: { received: true, ignored: outcome } };
	}
	const id = payloadId(payload);
	const digest = contentDigest(payload);
	let redelivery: IDataObject = {};
	if (id !== undefined && settings.dedupe) {
		const screening = screenDelivery(
			`${this.getWorkflow().id}:${this.getNode().id}`,
			`${kind}:${id}`,
			digest,
			settings.dedupeWindow,
			settings.memory,
		);
		if (screening.repeat) return { webhookResponse: { received: true, duplicate: true } };
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
	const items = deliveryItems(kind, payload, head, settings.splitResults);
	return { webhookResponse: { received: true }, workflowData: [items] };
}
