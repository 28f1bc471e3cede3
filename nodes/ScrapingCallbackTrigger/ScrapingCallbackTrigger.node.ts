import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { PAYLOAD_KINDS, type PayloadKind } from '../shared/callbackPayload';
import { receiveDelivery } from '../shared/delivery';
import type { DeliveryMemory } from '../shared/recentDeliveries';
import { secretsMatch } from '../shared/secret';

export const SECRET_HEADER = 'x-callback-secret';
export const SECRET_QUERY_PARAMETER = 'secret';
const DEFAULT_DEDUPE_WINDOW = 1000;

export class ScrapingCallbackTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraping Callback Trigger',
		name: 'scrapingCallbackTrigger',
		icon: { light: 'file:../../icons/scraping.svg', dark: 'file:../../icons/scraping.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["kinds"].length ? $parameter["kinds"].join(", ") : "all callbacks"}}',
		description:
			'Starts the workflow when the service delivers the results of a review job, product search, photo search, social scrape or video request',
		defaults: { name: 'Scraping Callback Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Without it n8n answers with the literal text "firstEntryJson" instead of the node's answer.
				responseData: '',
				path: 'callback',
			},
		],
		properties: [
			{
				displayName:
					'Paste this node\'s Production URL (above) into the Callback URL field of an operation. With a secret, add "?secret=YOUR_SECRET" to that URL: the service sends the URL back as given, and the secret is never shown in this workflow\'s items.',
				name: 'urlNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Callback Kinds',
				name: 'kinds',
				type: 'multiOptions',
				options: PAYLOAD_KINDS.map(({ name, value }) => ({ name, value })),
				default: [],
				description:
					'Which callbacks start the workflow; others are acknowledged and ignored. Empty means all. A callback whose kind cannot be told always starts the workflow, as kind "unknown".',
			},
			{
				displayName: 'Require Secret',
				name: 'requireSecret',
				type: 'boolean',
				default: false,
				description:
					'Whether callbacks must carry a shared secret; others get 401 and start nothing',
			},
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				displayOptions: { show: { requireSecret: [true] } },
			},
			{
				displayName: 'Secret Location',
				name: 'secretLocation',
				type: 'options',
				options: [
					{
						name: 'Query Parameter',
						value: 'query',
						description:
							'The only place the service can carry a secret: add ?secret=… to the callback URL',
					},
					{
						name: 'Header',
						value: 'header',
						description:
							'For other senders that can set the x-callback-secret header. The service cannot: its deliveries would all be refused.',
					},
				],
				default: 'query',
				displayOptions: { show: { requireSecret: [true] } },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Ignore Repeated Deliveries',
						name: 'dedupe',
						type: 'boolean',
						default: true,
						description:
							'Whether a callback with the same request or job ID and the same content as one already received is acknowledged without starting the workflow (the service retries deliveries). A re-sync (same ID, new content) starts the workflow with "redelivery": "update".',
					},
					{
						displayName: 'Only Completed Results',
						name: 'completedOnly',
						type: 'boolean',
						default: false,
						description:
							'Whether only callbacks whose outcome is "completed" start the workflow; invalid_url and failed results are acknowledged with 200 and ignored',
					},
					{
						displayName: 'Remembered Deliveries',
						name: 'dedupeWindow',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 100000, numberPrecision: 0 },
						default: DEFAULT_DEDUPE_WINDOW,
						description:
							'How many recent deliveries (ID and content) are remembered to recognise repeats',
					},
					{
						displayName: 'Split Results',
						name: 'splitResults',
						type: 'boolean',
						default: false,
						description:
							'Whether to output one item per result (per review for review jobs) instead of one item per callback',
					},
				],
			},
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
		const response = this.getResponseObject();
		const reject = (status: number, message: string): IWebhookResponseData => {
			response.status(status).json({ message });
			return { noWebhookResponse: true };
		};

		if (this.getNodeParameter('requireSecret', false) as boolean) {
			const expected = this.getNodeParameter('secret', '') as string;
			const given =
				this.getNodeParameter('secretLocation', 'query') === 'header'
					? this.getHeaderData()[SECRET_HEADER]
					: (this.getQueryData() as IDataObject)[SECRET_QUERY_PARAMETER];
			if (!secretsMatch(given, expected)) return reject(401, 'Invalid or missing callback secret');
		}

		const options = this.getNodeParameter('options', {}) as IDataObject;
		return receiveDelivery.call(this, {
			kinds: this.getNodeParameter('kinds', []) as PayloadKind[],
			completedOnly: options.completedOnly === true,
			dedupe: options.dedupe !== false,
			dedupeWindow: Number(options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW),
			splitResults: options.splitResults === true,
			memory: this.getWorkflowStaticData('node') as DeliveryMemory,
		});
	}
}
