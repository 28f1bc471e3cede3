import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FieldReader } from './validation';

function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** Optional fields sent to the service. */
export const additionalFields = (options: INodeProperties[]): INodeProperties =>
	collection('Additional Fields', 'additionalFields', 'Add Field', options);

/** Optional settings of the node itself. */
export const optionsCollection = (options: INodeProperties[]): INodeProperties =>
	collection('Options', 'options', 'Add Option', options);

export const filtersCollection = (options: INodeProperties[]): INodeProperties =>
	collection('Filters', 'filters', 'Add Filter', options);

export const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 50,
	description: 'Max number of results to return',
};

/** n8n's usual pair for "Get Many" operations. */
export const returnAllOrLimit: INodeProperties[] = [
	returnAllField,
	{ ...limitField, displayOptions: { show: { returnAll: [false] } } },
];

/** The limit to apply, or undefined for Return All. */
export function readLimit(this: IExecuteFunctions, itemIndex: number): number | undefined {
	if (this.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	return new FieldReader(this.getNode(), itemIndex).requiredInteger(
		'Limit',
		this.getNodeParameter('limit', itemIndex, 50),
		{ min: 1 },
	);
}

/**
 * The choice between one item per record (`perRecord`, the default) and one item with the whole
 * response (value `envelope`, described by `envelope`).
 */
export function outputField(
	perRecord: INodePropertyOptions & { value: string },
	envelope: string,
): INodeProperties {
	const { value } = perRecord;
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [perRecord, { name: 'Whole Response', value: 'envelope', description: envelope }],
		default: value,
	};
}

/**
 * What an AI agent's model reads about the operation's tool, shown only on the node's tool variant.
 * n8n's own "Set Automatically" description is the action's few words ("Get a respond job in
 * Review Scraper"), resolved when the tool runs; n8n adds its selector only to a node without a
 * field of this name. This field's default is per operation (and per Wait for Completion), so an
 * untouched one follows the operation like n8n's, and a user edits it like n8n's "Set Manually".
 */
export function toolDescriptionField(text: string, whenWaiting?: string): INodeProperties[] {
	const field = (value: string, waiting?: boolean): INodeProperties => ({
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: value,
		description:
			'What the AI agent reads about this tool: what it does, its arguments and what it returns',
		displayOptions: {
			show: { '@tool': [true], ...(waiting === undefined ? {} : { waitForCompletion: [waiting] }) },
		},
	});
	return whenWaiting === undefined ? [field(text)] : [field(text, false), field(whenWaiting, true)];
}
