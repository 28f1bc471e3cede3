import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PAYLOAD_KINDS, type PayloadKind } from '../shared/incoming/callbackPayload';
import {
	deliveryWebhook,
	receiveDelivery,
	type SecretLocation,
} from '../shared/incoming/trigger/delivery';
import {
	callbackKindsField,
	completedOnlyOption,
	dedupeOption,
	dedupeWindowOption,
	deliveryOptions,
	largeDeliveriesOption,
	readDeliveryOptions,
	secretFields,
	splitResultsOption,
} from '../shared/incoming/trigger/options';
import type { DeliveryMemory } from '../shared/incoming/trigger/recentDeliveries';
import { callbackTriggerPanel } from '../shared/incoming/trigger/panel';

export class ScrapingCallbackTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraping Callback Trigger',
		name: 'scrapingCallbackTrigger',
		icon: {
			light: 'file:../../icons/scrapingCallbackTrigger.svg',
			dark: 'file:../../icons/scrapingCallbackTrigger.dark.svg',
		},
		group: ['trigger'],
		// Stays 1: n8n leaves the body unparsed (Receive Large Deliveries) only for a start node of
		// type version exactly 1 (webhook-helpers parseRequestBody).
		version: 1,
		// The kind's name, not its value; a count for several.
		subtitle: `={{ $parameter["kinds"].length === 1 ? (${JSON.stringify(
			Object.fromEntries(PAYLOAD_KINDS.map(({ name, value }) => [value, name])),
		)})[$parameter["kinds"][0]] : $parameter["kinds"].length ? $parameter["kinds"].length + " kinds" : "all callbacks" }}`,
		description:
			'Starts the workflow when the service delivers the results of a review job, product search, photo search, social scrape or video request',
		defaults: { name: 'Scraping Callback Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [deliveryWebhook('callback')],
		triggerPanel: callbackTriggerPanel,
		properties: [
			{
				displayName:
					"Paste this node's Production URL into an operation's Callback URL: the service calls it from the internet, so n8n's N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 1.x) must be n8n's public address. A secret goes in that URL as ?secret=…, and deliveries over n8n's 16 MiB limit need Options → Receive Large Deliveries.",
				name: 'urlNotice',
				type: 'notice',
				default: '',
			},
			callbackKindsField(
				'Which callbacks start the workflow; others are acknowledged and ignored. Empty means all. A callback whose kind cannot be told always starts the workflow, as kind "unknown".',
			),
			...secretFields(
				'Whether callbacks must carry a shared secret; others get 401 and start nothing',
			),
			deliveryOptions([
				dedupeOption,
				completedOnlyOption,
				largeDeliveriesOption,
				dedupeWindowOption,
				splitResultsOption,
			]),
		],
	};

	// The user pastes this URL into operations, so there is nothing to register with the service:
	// the webhook exists as soon as n8n listens on it.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const requireSecret = this.getNodeParameter('requireSecret', false) as boolean;
		return await receiveDelivery.call(this, {
			secret: requireSecret
				? {
						expected: this.getNodeParameter('secret', '') as string,
						location: this.getNodeParameter('secretLocation', 'query') as SecretLocation,
					}
				: undefined,
			kinds: this.getNodeParameter('kinds', []) as PayloadKind[],
			...readDeliveryOptions.call(this),
			memory: this.getWorkflowStaticData('node') as DeliveryMemory,
		});
	}
}
