import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/outgoing/descriptions';
import { profileFields, readProfile } from '../../../shared/outgoing/profile';
import { failedItemJson } from '../../../shared/errorOutput';
import { notSentAgain, retryMemory } from '../../../shared/outgoing/retryMemory';
import { errorItem } from '../../../shared/outgoing/router';
import {
	apiRequest,
	markPossiblyCarriedOut,
	mayHaveBeenCarriedOut,
	toNodeError,
	type ServiceRequest,
} from '../../../shared/outgoing/transport';
import { FieldReader } from '../../../shared/outgoing/validation';
import {
	checkInputProfile,
	DEFAULTABLE_FIELDS,
	defaultsVaryPerItem,
	kind,
	readPath,
	readProfileDefaults,
	type InputMode,
} from './inputProfiles';

export const DEFAULT_BATCH_SIZE = 100;

const properties: INodeProperties[] = [
	// Version 1 read every profile from the node's fields; from 1.1 on the input items are the
	// profiles unless the user says otherwise, so no per-item expression is needed.
	inputModeProperty('defineBelow', { '@version': [1] }),
	inputModeProperty('autoMap', { '@version': [{ _cnd: { gte: 1.1 } }] }),
	{
		displayName:
			'Each input item is one profile: its fields url, query, place_id, from_date, blocks, diff, callback and external_identifier are sent; other fields are ignored, except one spelt like these in other case (place_ID), which is refused. The fields below apply to items that lack them.',
		name: 'autoMapNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { inputMode: ['autoMap'] } },
	},
	{
		displayName: 'List Field',
		name: 'listField',
		type: 'string',
		default: 'profiles',
		required: true,
		placeholder: 'body.profiles',
		description:
			'Field of the input item that holds the list of profiles (dots for nested fields, e.g. body.profiles); each element has the fields URL, query, place_id, from_date, blocks, diff, callback and external_identifier',
		displayOptions: { show: { inputMode: ['listField'] } },
	},
	{
		displayName:
			'Each input item becomes one profile; items are sent together in bulk requests of "Batch Size" profiles',
		name: 'addManyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { inputMode: ['defineBelow'] } },
	},
	...profileFields.map((field) =>
		DEFAULTABLE_FIELDS.has(field.name)
			? field
			: { ...field, displayOptions: { show: { inputMode: ['defineBelow'] } } },
	),
	optionsCollection([
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
			default: DEFAULT_BATCH_SIZE,
			description: 'Maximum number of profiles sent in one bulk request',
		},
	]),
];

/** How the error of a stopped run names a queued profile: where it came from, its job and what it is. */
function describeQueued(where: string, element: IDataObject, sent: IDataObject): string {
	const identity = ['url', 'query', 'place_id', 'external_identifier']
		.filter((key) => sent[key] !== undefined)
		.map((key) => `${key} ${String(sent[key])}`)
		.join(', ');
	return `${where}: job_id ${String(element.job_id)} (${identity})`;
}

function inputModeProperty(
	defaultMode: InputMode,
	show: NonNullable<INodeProperties['displayOptions']>['show'],
): INodeProperties {
	return {
		displayName: 'Profiles From',
		name: 'inputMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Map Automatically',
				value: 'autoMap',
				description: 'Each input item is a profile; its fields are sent as they are named',
			},
			{
				name: 'From a List Field',
				value: 'listField',
				description: 'Each input item carries a list of profiles, e.g. a webhook body',
			},
			{
				name: 'Define Below',
				value: 'defineBelow',
				description: 'Set each field of the profile, usually with expressions',
			},
		],
		default: defaultMode,
		displayOptions: { show },
	};
}

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['addMany'] } },
	properties,
);

/** One add_bulk request: checked profiles, sent as the JSON body. */
export function bulkRequest(profiles: IDataObject[]): ServiceRequest {
	return { api: 'review', method: 'POST', path: '/api/v2/profiles/add_bulk', body: profiles };
}

interface Pending {
	/** Position in the output: one per profile, in input order. */
	unit: number;
	itemIndex: number;
	/** How messages name the profile: "item 3", or "profile 5 of item 0" in list mode. */
	where: string;
	profile: IDataObject;
}

export async function executeBatch(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const continueOnFail = this.continueOnFail();
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const batchSize = Math.max(1, Math.floor(Number(options.batchSize ?? DEFAULT_BATCH_SIZE)));
	const mode = this.getNodeParameter('inputMode', 0, 'defineBelow') as InputMode;
	const node = this.getNode();

	const output: INodeExecutionData[] = [];
	const pending: Pending[] = [];
	const fail = (error: unknown, itemIndex: number, extra?: IDataObject) => {
		const itemError = toNodeError(node, error, itemIndex);
		if (!continueOnFail) throw itemError;
		output.push(errorItem.call(this, itemError, itemIndex, extra));
	};
	const add = (itemIndex: number, where: string, profile: IDataObject) => {
		pending.push({ unit: output.length, itemIndex, where, profile });
		output.push({ json: {}, pairedItem: { item: itemIndex } });
	};

	// The defaults are read once unless they hold an expression: reading a parameter per item is
	// what makes the item modes cost what an expression costs.
	const varying = mode !== 'defineBelow' && defaultsVaryPerItem(node);
	const fixedDefaults = mode !== 'defineBelow' && !varying ? readProfileDefaults.call(this, 0) : {};
	const defaultsFor = (itemIndex: number) =>
		varying ? readProfileDefaults.call(this, itemIndex) : fixedDefaults;

	// Every profile is checked before the first bulk request, so a bad one never leaves half the
	// input queued and the rest not.
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		if (mode === 'defineBelow') {
			try {
				add(itemIndex, `item ${itemIndex}`, readProfile.call(this, itemIndex));
			} catch (error) {
				fail(error, itemIndex);
			}
		} else if (mode === 'autoMap') {
			try {
				const profile = checkInputProfile(
					node,
					itemIndex,
					items[itemIndex].json,
					defaultsFor(itemIndex),
					(key) => (key ? `Field "${key}" of the input item` : 'The input item'),
				);
				add(itemIndex, `item ${itemIndex}`, profile);
			} catch (error) {
				fail(error, itemIndex);
			}
		} else {
			let list: unknown[];
			let path: string;
			let defaults: ReturnType<typeof readProfileDefaults>;
			try {
				path = String(this.getNodeParameter('listField', itemIndex, '')).trim();
				const read = new FieldReader(node, itemIndex);
				if (path === '') throw read.fail('List Field', 'is required');
				const value = readPath(items[itemIndex].json, path);
				if (!Array.isArray(value)) {
					throw read.fail(
						`List Field "${path}"`,
						`must name a list of profiles in the input item, got ${kind(value)}`,
					);
				}
				list = value;
				defaults = defaultsFor(itemIndex);
			} catch (error) {
				fail(error, itemIndex);
				continue;
			}
			list.forEach((element, position) => {
				try {
					const profile = checkInputProfile(node, itemIndex, element, defaults, (key) =>
						key ? `Field "${path}[${position}].${key}"` : `Element ${position} of "${path}"`,
					);
					add(itemIndex, `profile ${position} of item ${itemIndex}`, profile);
				} catch (error) {
					fail(error, itemIndex, { listIndex: position });
				}
			});
		}
	}

	const refused: Array<{ where: string; itemIndex: number; message: string; status?: unknown }> =
		[];
	const queued: string[] = [];
	const accept = ({ unit, itemIndex, where, profile }: Pending, element: IDataObject) => {
		queued.push(describeQueued(where, element, profile));
		output[unit] = { json: element, pairedItem: { item: itemIndex } };
	};

	// n8n's Retry On Fail runs this again with the same input: a profile that an earlier try got
	// queued is not sent again (a second job), and one whose request may have been carried out
	// fails again unsent. Only the rest goes into this try's batches.
	const memory = retryMemory.call(this);
	const profileRequest = ({ profile }: Pending) => bulkRequest([profile]);
	const toSend: Pending[] = [];
	for (const entry of pending) {
		const earlier = memory?.recall(entry.unit, profileRequest(entry));
		if (earlier?.landed === true) accept(entry, earlier.answer as IDataObject);
		else if (earlier) fail(notSentAgain(earlier.error), entry.itemIndex);
		else toSend.push(entry);
	}

	for (let start = 0; start < toSend.length; start += batchSize) {
		const batch = toSend.slice(start, start + batchSize);
		let results: unknown;
		try {
			// A batch operation: its requests carry many items, so it sends them itself (router.ts).
			results = await apiRequest.call(this, {
				...bulkRequest(batch.map(({ profile }) => profile)),
				itemIndex: batch[0].itemIndex,
			});
			if (!Array.isArray(results) || results.length !== batch.length) {
				// The service took the request: which of its profiles it queued cannot be told.
				throw markPossiblyCarriedOut(
					new NodeOperationError(
						node,
						`The bulk response has ${Array.isArray(results) ? results.length : 'no'} elements for ${batch.length} profiles`,
						{ itemIndex: batch[0].itemIndex },
					),
				);
			}
		} catch (error) {
			if (mayHaveBeenCarriedOut(error)) {
				for (const entry of batch) {
					memory?.mayHaveLanded(entry.unit, profileRequest(entry), error as Error);
				}
			}
			const batchError = toNodeError(node, error, batch[0].itemIndex);
			if (!continueOnFail) {
				if (queued.length > 0) {
					batchError.description =
						`${batchError.description ?? ''} ${queued.length} profiles of earlier batches were already queued, so do not send them again: ${queued.join('; ')}.`.trim();
				}
				throw batchError;
			}
			for (const { unit, itemIndex } of batch) {
				output[unit] = errorItem.call(this, batchError, itemIndex);
			}
			continue;
		}

		batch.forEach((entry, position) => {
			const { unit, itemIndex, where } = entry;
			const element = (results as IDataObject[])[position] ?? {};
			if (element.success === false) {
				const message = String(element.message ?? 'The service refused this profile');
				refused.push({ where, itemIndex, message, status: element.status });
				output[unit] = {
					json: failedItemJson(this, { ...element, error: message }, undefined, element),
					pairedItem: { item: itemIndex },
				};
			} else {
				memory?.landed(unit, profileRequest(entry), element);
				accept(entry, element);
			}
		});
	}

	if (refused.length > 0 && !continueOnFail) {
		const [first] = refused;
		throw new NodeApiError(
			node,
			{ message: first.message },
			{
				message: `The service refused the profile of ${first.where}: ${first.message}`,
				description:
					`${refused.length} of ${pending.length} profiles were refused (${refused
						.map((r) => `${r.where}: ${r.message}`)
						.join('; ')}). The other ${queued.length} were queued` +
					(queued.length > 0
						? `, so send only the refused ones again: ${queued.join('; ')}.`
						: '.') +
					' Turn on "Continue On Fail" to get one output item per profile instead.',
				httpCode: typeof first.status === 'number' ? String(first.status) : undefined,
				itemIndex: first.itemIndex,
			},
		);
	}
	return output;
}
