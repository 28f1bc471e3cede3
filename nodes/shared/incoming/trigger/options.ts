import type { IDataObject, INodeProperties, IWebhookFunctions } from 'n8n-workflow';

export const DEFAULT_DEDUPE_WINDOW = 1000;

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
	const options = this.getNodeParameter('options', {}) as IDataObject;
	return {
		completedOnly: options.completedOnly === true,
		dedupe: options.dedupe !== false,
		dedupeWindow: Number(options.dedupeWindow ?? DEFAULT_DEDUPE_WINDOW),
		splitResults: options.splitResults === true,
	};
}
