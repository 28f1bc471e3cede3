import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import {
	checkProfile,
	OPTIONAL_PROFILE_KEYS,
	pickProfileKeys,
	PROFILE_KEYS,
	profileLabel,
	readProfileParameters,
	type ProfileKey,
	type RawProfile,
} from '../../../shared/outgoing/profile';
import { FieldReader } from '../../../shared/outgoing/validation';

/** Where Add Many's profiles come from: an item's own fields, a list in it, or the node's fields. */
export type InputMode = 'autoMap' | 'listField' | 'defineBelow';

/** Node fields that stay visible when profiles come from the input, as defaults for what one lacks. */
export const DEFAULTABLE_FIELDS = new Set(['callback', 'additionalFields']);

/** The keys whose node fields stay visible in the input modes (callback and Additional Fields). */
const DEFAULT_KEYS: readonly ProfileKey[] = ['callback', ...OPTIONAL_PROFILE_KEYS];

/** The node's Callback URL and Additional Fields, the defaults of profiles read from the input. */
export function readProfileDefaults(this: IExecuteFunctions, itemIndex: number): RawProfile {
	return readProfileParameters.call(this, itemIndex, DEFAULT_KEYS);
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
	return checkProfile(read, raw, (key) => (fromNode.has(key) ? profileLabel(key) : name(key)));
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
