import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import {
	checkProfile,
	pickProfileKeys,
	PROFILE_KEYS,
	type ProfileKey,
	type RawProfile,
} from '../../../shared/profile';
import { additionalFields } from '../../../shared/descriptions';
import { FieldReader } from '../../../shared/validation';

/**
 * The query parameters of the spec's "Review profiles and jobs", shared by Add and Add Many (Add
 * Many reads them per item).
 */
export const profileFields: INodeProperties[] = [
	{
		displayName: 'Fill at least one of Profile URL, Search Query and Place ID',
		name: 'identifierNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Profile URL',
		name: 'url',
		type: 'string',
		default: '',
		placeholder: 'https://www.example.com/biz/some-business',
		description: 'Address of the review profile to collect',
	},
	{
		displayName: 'Search Query',
		name: 'query',
		type: 'string',
		default: '',
		placeholder: 'Pizza Palace Berlin Mitte',
		description: 'Search query that shows the listing (Google review profiles only)',
	},
	{
		displayName: 'Place ID',
		name: 'placeId',
		type: 'string',
		default: '',
		placeholder: 'ChIJN1t_tDeuEmsRUsoyG83frY4',
		description: 'Place identifier of a Google profile',
	},
	{
		displayName: 'Callback URL',
		name: 'callback',
		type: 'string',
		default: '',
		placeholder: 'https://your-n8n.example.com/webhook/reviews',
		description:
			'Address that receives the reviews when the job is complete, for example the production URL of a Scraping Callback Trigger or Webhook node',
	},
	additionalFields([
		{
			displayName: 'External Identifier',
			name: 'externalIdentifier',
			type: 'string',
			default: '',
			description:
				'Your own reference for the job, at most 255 characters (a limit of the review API); always included in the callback payload',
		},
		{
			displayName: 'Latest Reviews Count',
			name: 'blocks',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 10,
			description: 'Number of latest reviews to collect',
		},
		{
			displayName: 'Only Reviews Since Job',
			name: 'diff',
			type: 'string',
			default: '',
			placeholder: '10001',
			description:
				'ID of a previous job: only reviews missing since that job are fetched. Empty: not sent.',
		},
		{
			displayName: 'Reviews Since',
			name: 'fromDate',
			type: 'string',
			default: '',
			placeholder: 'YYYY-MM-DD',
			description: 'Collect reviews published on or after this date',
		},
	]),
];

const FIELD_LABELS: Record<ProfileKey, string> = {
	url: 'Profile URL',
	query: 'Search Query',
	place_id: 'Place ID',
	callback: 'Callback URL',
	from_date: 'Reviews Since',
	blocks: 'Latest Reviews Count',
	diff: 'Only Reviews Since Job',
	external_identifier: 'External Identifier',
};

/** Reads and checks one item's profile parameters; throws before anything is sent. */
export function readProfileParameters(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return checkProfile(
		new FieldReader(this.getNode(), itemIndex),
		{
			url: this.getNodeParameter('url', itemIndex, ''),
			query: this.getNodeParameter('query', itemIndex, ''),
			place_id: this.getNodeParameter('placeId', itemIndex, ''),
			callback: this.getNodeParameter('callback', itemIndex, ''),
			from_date: extra.fromDate,
			blocks: extra.blocks,
			diff: extra.diff,
			external_identifier: extra.externalIdentifier,
		},
		(key) => FIELD_LABELS[key],
	);
}

export type InputMode = 'autoMap' | 'listField' | 'defineBelow';

/** Node fields that stay visible when profiles come from the input, as defaults for what one lacks. */
export const DEFAULTABLE_FIELDS = new Set(['callback', 'additionalFields']);

/** The node's Callback URL and Additional Fields, the defaults of profiles read from the input. */
export function readProfileDefaults(this: IExecuteFunctions, itemIndex: number): RawProfile {
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return {
		callback: this.getNodeParameter('callback', itemIndex, ''),
		from_date: extra.fromDate,
		blocks: extra.blocks,
		diff: extra.diff,
		external_identifier: extra.externalIdentifier,
	};
}

/** Whether the defaults hold an expression, so they must be read again for every item. */
export function defaultsVaryPerItem(node: INode): boolean {
	return JSON.stringify([node.parameters.callback, node.parameters.additionalFields]).includes(
		'"=',
	);
}

/**
 * Checks a profile taken from input data (an item's fields or a list element). Fields it lacks
 * come from `defaults`; other fields of the row are ignored, but not one that differs from a
 * profile field only by case. Errors name the field where its value came from.
 */
export function checkInputProfile(
	node: INode,
	itemIndex: number,
	source: unknown,
	defaults: RawProfile,
	name: (key: string | undefined) => string,
): IDataObject {
	const read = new FieldReader(node, itemIndex);
	if (typeof source !== 'object' || source === null || Array.isArray(source)) {
		throw read.fail(
			name(undefined),
			`must be an object with url, query or place_id, got ${kind(source)}`,
		);
	}
	const fields = pickProfileKeys(read, source as IDataObject, name, 'ignoreUnrelated');
	const raw: RawProfile = {};
	const fromNode = new Set<ProfileKey>();
	for (const key of PROFILE_KEYS) {
		const value = fields[key];
		if (value === undefined || value === null || value === '') {
			raw[key] = defaults[key];
			if (defaults[key] !== undefined) fromNode.add(key);
		} else {
			raw[key] = value;
		}
	}
	return checkProfile(read, raw, (key) => (fromNode.has(key) ? FIELD_LABELS[key] : name(key)));
}

/** Reads a dotted path such as `body.profiles` from an item's JSON. */
export function readPath(json: IDataObject, path: string): unknown {
	let value: unknown = json;
	for (const part of path.split('.')) {
		if (typeof value !== 'object' || value === null) return undefined;
		value = (value as IDataObject)[part];
	}
	return value;
}

export function kind(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return `${typeof value} "${String(value).slice(0, 50)}"`;
}
