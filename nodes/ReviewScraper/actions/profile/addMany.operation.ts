import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { BatchEntry, Bulk } from '../../../shared/outgoing/batches';
import {
	allowPrivateCallbackOption,
	hintNoDestination,
	noDestinationNotice,
} from '../../../shared/outgoing/callbackReachability';
import { optionsCollection, toolDescriptionField } from '../../../shared/outgoing/descriptions';
import { AUTO_MAP_PROFILES_FROM } from '../../versions';
import { PROFILE_KEYS, readProfile } from '../../../shared/outgoing/profile';
import { profileFields } from '../../../shared/outgoing/profileFields';
import { Batched } from '../../../shared/outgoing/router';
import type { ServiceRequest } from '../../../shared/outgoing/transport';
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
import { endpointRequest } from '../../../shared/outgoing/transport';

export const DEFAULT_BATCH_SIZE = 100;

/** "a, b and c": the profile keys as the editor's texts name them. */
function listOfKeys(keys: readonly string[]): string {
	return `${keys.slice(0, -1).join(', ')} and ${keys[keys.length - 1]}`;
}

const properties: INodeProperties[] = [
	// Version 1 read every profile from the node's fields; from 1.1 on the input items are the
	// profiles unless the user says otherwise, so no per-item expression is needed.
	inputModeProperty('defineBelow', { '@version': [1] }),
	inputModeProperty('autoMap', { '@version': [{ _cnd: { gte: AUTO_MAP_PROFILES_FROM } }] }),
	{
		displayName: `Each input item is one profile: its fields ${listOfKeys(PROFILE_KEYS)} are sent; other fields are ignored, except one spelt like these in other case (place_ID), which is refused. The fields below apply to items that lack them.`,
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
		placeholder: 'e.g. body.profiles',
		description: `Field of the input item that holds the list of profiles (dots for nested fields, e.g. body.profiles); each element has the fields ${listOfKeys(PROFILE_KEYS.map((key) => (key === 'url' ? 'URL' : key)))}`,
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
	noDestinationNotice('addMany', {
		callback: [''],
	}),
	...profileFields.map((field) =>
		DEFAULTABLE_FIELDS.has(field.name)
			? field
			: { ...field, displayOptions: { show: { inputMode: ['defineBelow'] } } },
	),
	optionsCollection([
		allowPrivateCallbackOption,
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
function describeAcceptedProfile(label: string, element: IDataObject, sent: IDataObject): string {
	const identity = ['url', 'query', 'place_id', 'external_identifier']
		.filter((key) => sent[key] !== undefined)
		.map((key) => `${key} ${String(sent[key])}`)
		.join(', ');
	return `${label}: job_id ${String(element.job_id)} (${identity})`;
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
	[
		...properties,
		...toolDescriptionField(
			'Queues several review profiles for collection in one request. Each profile needs the URL of its page on a review site. Returns a job_id per profile at once; the reviews are delivered later to the Callback URL, not by this tool.',
		),
	],
);

/** One add_bulk request: checked profiles, sent as the JSON body. */
export function bulkRequest(profiles: IDataObject[]): ServiceRequest {
	return endpointRequest('review', 'POST /api/v2/profiles/add_bulk', {}, { body: profiles });
}

/**
 * The profiles of each input item, checked: one per item, or one per list element. The defaults
 * are read once unless they hold an expression: reading a parameter per item is what makes the
 * item modes cost what an expression costs.
 */
function entriesReader(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): (itemIndex: number) => BatchEntry[] {
	const mode = this.getNodeParameter('inputMode', 0, 'defineBelow') as InputMode;
	const node = this.getNode();
	const varying = mode !== 'defineBelow' && defaultsVaryPerItem(node);
	const fixedDefaults = mode !== 'defineBelow' && !varying ? readProfileDefaults.call(this, 0) : {};
	const defaultsFor = (itemIndex: number) =>
		varying ? readProfileDefaults.call(this, itemIndex) : fixedDefaults;

	const entriesOf = (itemIndex: number): BatchEntry[] => {
		const label = `item ${itemIndex}`;
		if (mode === 'defineBelow') return [{ label, body: readProfile.call(this, itemIndex) }];
		if (mode === 'autoMap') {
			const body = checkInputProfile(
				node,
				itemIndex,
				items[itemIndex].json,
				defaultsFor(itemIndex),
				(key) => (key ? `Field "${key}" of the input item` : 'The input item'),
			);
			return [{ label, body }];
		}
		const path = String(this.getNodeParameter('listField', itemIndex, '')).trim();
		const read = new FieldReader(node, itemIndex);
		if (path === '') throw read.fail('List Field', 'is required');
		const list = readPath(items[itemIndex].json, path);
		if (!Array.isArray(list)) {
			throw read.fail(
				`List Field "${path}"`,
				`must name a list of profiles in the input item, got ${kind(list)}`,
			);
		}
		const defaults = defaultsFor(itemIndex);
		return list.map((element: unknown, position): BatchEntry => {
			try {
				const body = checkInputProfile(node, itemIndex, element, defaults, (key) =>
					key ? `Field "${path}[${position}].${key}"` : `Element ${position} of "${path}"`,
				);
				return { label: `profile ${position} of item ${itemIndex}`, body };
			} catch (error) {
				return { error, extra: { listIndex: position } };
			}
		});
	};
	return (itemIndex) => {
		const entries = entriesOf(itemIndex);
		if (entries.some((entry) => 'body' in entry && !entry.body.callback)) {
			hintNoDestination.call(this, 'addMany');
		}
		return entries;
	};
}

/** A failed bulk request stops the run before the next one carries more profiles. */
export const oneAtATime = true;

/** What a run reads once, not per item: the input mode, the node's defaults, the batch size. */
const runs = new WeakMap<
	IExecuteFunctions,
	{ entriesOf: (itemIndex: number) => BatchEntry[]; bulk: Bulk }
>();

/** An item's profiles, checked, for the router to send in bulk requests of Batch Size profiles. */
export function prepare(this: IExecuteFunctions, itemIndex: number): Batched {
	let run = runs.get(this);
	if (!run) {
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		run = {
			entriesOf: entriesReader.call(this, this.getInputData()),
			bulk: {
				entryName: 'profile',
				size: Math.max(1, Math.floor(Number(options.batchSize ?? DEFAULT_BATCH_SIZE))),
				request: bulkRequest,
				describeAccepted: describeAcceptedProfile,
			},
		};
		runs.set(this, run);
	}
	return new Batched(run.entriesOf(itemIndex), run.bulk);
}
