import type { IDataObject, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import { PAYLOAD_KINDS } from '../callbackPayload';

export const DEFAULT_DEDUPE_WINDOW = 1000;

/**
 * Callback Kinds, as the Scraping Callback Trigger and Scraping Delivery both offer it: the same
 * name and values, so that a workflow moves between them; `description` says what a filtered
 * delivery becomes in each.
 */
export function callbackKindsField(description: string): INodeProperties {
	return {
		displayName: 'Callback Kinds',
		name: 'kinds',
		type: 'multiOptions',
		options: PAYLOAD_KINDS.map(({ name, value }) => ({ name, value })).sort((a, b) =>
			a.name.localeCompare(b.name),
		),
		default: [],
		// n8n 2.41 shows "Select" in an empty multi-select whatever the placeholder says.
		hint: 'Leave empty for all kinds',
		description,
	};
}

/**
 * Require Secret, Secret and Secret Location, shared like Callback Kinds; `requireDescription`
 * says what happens to a delivery without the secret.
 */
export function secretFields(requireDescription: string): INodeProperties[] {
	return [
		{
			displayName: 'Require Secret',
			name: 'requireSecret',
			type: 'boolean',
			default: false,
			description: requireDescription,
		},
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The value a callback must carry; give the operation the callback URL with "?secret=" and this value at its end',
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
			// Out of a newcomer's path (the service cannot send a header), shown only where a saved
			// workflow chose the header.
			displayOptions: { show: { requireSecret: [true], secretLocation: ['header'] } },
		},
	];
}

/** The most a trigger reads of a delivery that n8n left unread (`largeDeliveriesOption`). */
export const LARGE_DELIVERY_LIMIT_MIB = 128;

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
	description: `Whether this trigger reads deliveries itself, up to ${LARGE_DELIVERY_LIMIT_MIB} MiB, instead of leaving them to n8n, which refuses any body over its limit (16 MiB by default) and so loses a big review job`,
};

export const dedupeOption: INodeProperties = {
	displayName: 'Ignore Repeated Deliveries',
	name: 'dedupe',
	type: 'boolean',
	default: true,
	description: `Whether a delivery with the same request or job ID and the same content as one already received (by default the last ${DEFAULT_DEDUPE_WINDOW} are remembered) is acknowledged without starting the workflow (the service retries deliveries). A re-sync (same ID, new content) starts the workflow with "redelivery": "update".`,
};

export const completedOnlyOption: INodeProperties = {
	displayName: 'Only Completed Results',
	name: 'completedOnly',
	type: 'boolean',
	default: false,
	description:
		'Whether only deliveries whose outcome is "completed" start the workflow; invalid_url and failed results are acknowledged with 200 and ignored',
};

export const dedupeWindowOption: INodeProperties = {
	displayName: 'Remembered Deliveries',
	name: 'dedupeWindow',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100000, numberPrecision: 0 },
	default: DEFAULT_DEDUPE_WINDOW,
	description: 'How many recent deliveries (ID and content) are remembered to recognise repeats',
};

export const splitResultsOption: INodeProperties = {
	displayName: 'Split Results',
	name: 'splitResults',
	type: 'boolean',
	default: false,
	description:
		'Whether to output one item per result (per review for review jobs) instead of one item per delivery',
};

/** The Options collection of a trigger, with the delivery options it offers. */
export function deliveryOptions(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

export interface DeliveryOptions {
	completedOnly: boolean;
	dedupe: boolean;
	dedupeWindow: number;
	splitResults: boolean;
}

/** The delivery options as set; an option a trigger does not offer keeps its default. */
export function readDeliveryOptions(this: IWebhookFunctions): DeliveryOptions {
	return deliveryOptionsOf(this.getNodeParameter('options', {}) as IDataObject);
}

/** The delivery options of an Options collection's value; an option not set keeps its default. */
export function deliveryOptionsOf(options: IDataObject): DeliveryOptions {
	return {
		completedOnly: options.completedOnly === true,
		dedupe: options.dedupe !== false,
		dedupeWindow: Number(options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW),
		splitResults: options.splitResults === true,
	};
}
