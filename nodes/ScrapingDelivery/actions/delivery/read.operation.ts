import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { isObject } from '../../../shared/dataObject';
import type { PayloadKind } from '../../../shared/incoming/callbackPayload';
import {
	carriesSecret,
	isDeliveryBody,
	readDelivery,
	type SecretLocation,
} from '../../../shared/incoming/trigger/delivery';
import {
	callbackKindsField,
	completedOnlyOption,
	dedupeOption,
	dedupeWindowOption,
	DEFAULT_DEDUPE_WINDOW,
	deliveryOptions,
	deliveryOptionsOf,
	secretFields,
	splitResultsOption,
} from '../../../shared/incoming/trigger/options';
import type { DeliveryMemory } from '../../../shared/incoming/trigger/recentDeliveries';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';
import type { AnsweredItem } from '../../../shared/outgoing/router';

// The Scraping Callback Trigger's parameters, by the same names and defaults, so that a workflow
// moves between the two; only what a filtered or repeated delivery becomes reads differently.
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['delivery'], operation: ['read'] } },
	[
		callbackKindsField(
			'Which callbacks give items; others give none. Empty means all. A callback whose kind cannot be told always gives an item, as kind "unknown".',
		),
		...secretFields(
			'Whether callbacks must carry a shared secret; this node fails on an item without it',
		),
		deliveryOptions([
			{
				...dedupeOption,
				description: `Whether a delivery with the same request or job ID and the same content as one already read (by default the last ${DEFAULT_DEDUPE_WINDOW} are remembered) gives no item (the service retries deliveries). A re-sync (same ID, new content) gives items with "redelivery": "update".`,
			},
			{
				...completedOnlyOption,
				description:
					'Whether only deliveries whose outcome is "completed" give items; invalid_url and failed results give none',
			},
			dedupeWindowOption,
			splitResultsOption,
		]),
		...toolDescriptionField(
			"Checks and reads a delivery of the scraping service that n8n's Webhook node received (the input item's body, query and headers). Returns the Scraping Callback Trigger's items (kind, id, outcome, payload); none for a filtered or repeated delivery. Fails without the secret.",
		),
	],
);

/**
 * One delivery as n8n's Webhook node outputs it (`body`, `query`, `headers`) checked and read as
 * the Scraping Callback Trigger reads its own: the same items, or none for a delivery the trigger
 * would have acknowledged without starting the workflow.
 */
export function prepare(this: IExecuteFunctions, itemIndex: number): AnsweredItem {
	const { json } = this.getInputData()[itemIndex];
	const node = this.getNode();
	if (this.getNodeParameter('requireSecret', itemIndex, false)) {
		const secret = {
			expected: this.getNodeParameter('secret', itemIndex, '') as string,
			location: this.getNodeParameter('secretLocation', itemIndex, 'query') as SecretLocation,
		};
		if (!carriesSecret(secret, objectOrEmpty(json.query), objectOrEmpty(json.headers))) {
			throw new NodeOperationError(node, `Invalid or missing callback secret (item ${itemIndex})`, {
				itemIndex,
				description:
					"The delivery does not carry this node's Secret (?secret=… in its address, or the x-callback-secret header), so it may not come from the service. n8n's Webhook node has already answered it. Give operations the Webhook node's Production URL with ?secret= and the Secret at its end.",
			});
		}
	}
	if (!isDeliveryBody(json.body)) {
		throw new NodeOperationError(
			node,
			`The callback body must be a JSON object (item ${itemIndex})`,
			{
				itemIndex,
				description:
					"This node reads the output of n8n's Webhook node, whose body field holds the delivery: a JSON object with something in it. Put it right after a Webhook node that receives POST requests.",
			},
		);
	}
	const reading = readDelivery(json.body, {
		kinds: this.getNodeParameter('kinds', itemIndex, []) as PayloadKind[],
		...deliveryOptionsOf(this.getNodeParameter('options', itemIndex, {}) as IDataObject),
		memory: this.getWorkflowStaticData('node') as DeliveryMemory,
		scope: `${this.getWorkflow().id}:${node.id}`,
	});
	return { output: 'items' in reading ? reading.items : [] };
}

const objectOrEmpty = (value: unknown): IDataObject => (isObject(value) ? value : {});
