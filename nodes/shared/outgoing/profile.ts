import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { FieldReader } from './validation';

/** Review profile jobs only (docs/service-facts.md#review-profile-jobs); scrapers take longer. */
export const EXTERNAL_IDENTIFIER_MAX_LENGTH = 255;

/**
 * The parameters of a review profile job (docs/service-facts.md#review-profile-jobs): each key as
 * the service names it, the node parameter that holds it, the name the user sees, and how it is
 * cleaned. Add, Add Many, the Scheduler's add and add_bulk and the Recurring Reviews Trigger all
 * read and check profiles through this table; their editor fields are in `profileFields.ts`.
 */
const PROFILE_TABLE = [
	{
		key: 'url',
		parameter: 'url',
		label: 'Profile URL',
		clean: (read: FieldReader, label: string, value: unknown) => read.optionalUrl(label, value),
	},
	{
		key: 'query',
		parameter: 'query',
		label: 'Search Query',
		clean: (read: FieldReader, label: string, value: unknown) => read.optionalString(label, value),
	},
	{
		key: 'place_id',
		parameter: 'placeId',
		label: 'Place ID',
		clean: (read: FieldReader, label: string, value: unknown) => read.optionalString(label, value),
	},
	{
		key: 'from_date',
		parameter: 'fromDate',
		label: 'Reviews Since',
		optional: true,
		clean: (read: FieldReader, label: string, value: unknown) => read.optionalDate(label, value),
	},
	{
		key: 'blocks',
		parameter: 'blocks',
		label: 'Latest Reviews Count',
		optional: true,
		clean: (read: FieldReader, label: string, value: unknown) =>
			read.optionalInteger(label, value, { min: 1 }),
	},
	{
		key: 'diff',
		parameter: 'diff',
		label: 'Only Reviews Since Job',
		optional: true,
		clean: (read: FieldReader, label: string, value: unknown) =>
			read.optionalInteger(label, value, { min: 1 }),
	},
	{
		key: 'callback',
		parameter: 'callback',
		label: 'Callback URL',
		clean: (read: FieldReader, label: string, value: unknown) => read.optionalUrl(label, value),
	},
	{
		key: 'external_identifier',
		parameter: 'externalIdentifier',
		label: 'External Identifier',
		optional: true,
		clean: (read: FieldReader, label: string, value: unknown) =>
			read.optionalString(label, value, EXTERNAL_IDENTIFIER_MAX_LENGTH),
	},
] as const satisfies ReadonlyArray<{
	key: string;
	parameter: string;
	label: string;
	/** Add keeps it under Additional Fields. */
	optional?: boolean;
	clean: (read: FieldReader, label: string, value: unknown) => unknown;
}>;

export type ProfileKey = (typeof PROFILE_TABLE)[number]['key'];
type ProfileSpec = (typeof PROFILE_TABLE)[number];

export const PROFILE_KEYS: readonly ProfileKey[] = PROFILE_TABLE.map(({ key }) => key);

export type RawProfile = Partial<Record<ProfileKey, unknown>>;

const specOf = (key: ProfileKey): ProfileSpec => PROFILE_TABLE.find((spec) => spec.key === key)!;

/** The name the user sees for a profile key in the node's fields. */
export const profileLabel = (key: ProfileKey): string => specOf(key).label;

/** The node parameter that holds a profile key. */
export const profileParameter = (key: ProfileKey): string => specOf(key).parameter;

const isOptional = (spec: ProfileSpec) => 'optional' in spec && spec.optional;

/** The keys Profile → Add keeps under Additional Fields. */
export const OPTIONAL_PROFILE_KEYS: readonly ProfileKey[] = PROFILE_TABLE.filter(isOptional).map(
	({ key }) => key,
);

/** The profile's node parameters as Add keeps them (`only`: those keys alone), not yet checked. */
export function readProfileParameters(
	this: IExecuteFunctions,
	itemIndex: number,
	only: readonly ProfileKey[] = PROFILE_KEYS,
): RawProfile {
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const raw: RawProfile = {};
	for (const spec of PROFILE_TABLE) {
		if (!only.includes(spec.key)) continue;
		raw[spec.key] = isOptional(spec)
			? extra[spec.parameter]
			: this.getNodeParameter(spec.parameter, itemIndex, '');
	}
	return raw;
}

/** Reads and checks one item's profile parameters; throws before anything is sent. */
export function readProfile(this: IExecuteFunctions, itemIndex: number): IDataObject {
	return checkProfile(
		new FieldReader(this.getNode(), itemIndex),
		readProfileParameters.call(this, itemIndex),
		profileLabel,
	);
}

/** Profile values read by their node parameter names (the trigger's own fields), not yet checked. */
export function profileFromParameters(
	keys: readonly ProfileKey[],
	parameter: (name: string) => unknown,
): RawProfile {
	return Object.fromEntries(keys.map((key) => [key, parameter(specOf(key).parameter)]));
}

/**
 * What to do with a key that is not a profile parameter: `refuse` where the user writes the
 * profile (schedules, the trigger's list), `ignoreUnrelated` where a profile is a row of input data
 * that carries other columns. A key that differs from a parameter only by case is refused in both:
 * dropping `place_ID` would send a profile without its place.
 */
export type UnknownKeys = 'refuse' | 'ignoreUnrelated';

/** The profile parameters of `source`; errors name a key through `label`. */
export function pickProfileKeys(
	read: FieldReader,
	source: IDataObject,
	label: (key: string) => string,
	unknownKeys: UnknownKeys,
): RawProfile {
	const raw: RawProfile = {};
	for (const [key, value] of Object.entries(source)) {
		if ((PROFILE_KEYS as readonly string[]).includes(key)) {
			raw[key as ProfileKey] = value;
			continue;
		}
		const sameButCase = PROFILE_KEYS.find((known) => known === key.toLowerCase());
		if (sameButCase) {
			throw read.fail(
				label(key),
				`is not a profile field: did you mean "${sameButCase}"? Field names are case-sensitive`,
			);
		}
		if (unknownKeys === 'refuse') {
			throw read.fail(
				label(key),
				`is not a profile field: a profile takes ${PROFILE_KEYS.join(', ')}`,
			);
		}
	}
	return raw;
}

/**
 * Checks one profile against docs/service-facts.md#review-profile-jobs and returns what to send,
 * empty values left out. Every way a profile reaches the service (Add, Add Many, scheduled add and
 * add_bulk) goes through here, so each is cleaned the same way. `label` turns a key into the name
 * the user sees.
 */
export function checkProfile(
	read: FieldReader,
	raw: RawProfile,
	label: (key: ProfileKey) => string,
): IDataObject {
	const profile: IDataObject = {};
	for (const { key, clean } of PROFILE_TABLE) profile[key] = clean(read, label(key), raw[key]);
	if (!profile.url && !profile.query && !profile.place_id) {
		throw read.fail(
			`${label('url')}, ${label('query')} or ${label('place_id')}`,
			'is required: fill at least one',
		);
	}
	for (const key of Object.keys(profile)) {
		if (profile[key] === undefined) delete profile[key];
	}
	return profile;
}

/** A profile written as an object (schedule parameters, a JSON list): keys checked, then the profile. */
export function checkProfileObject(
	read: FieldReader,
	source: IDataObject,
	label: (key: string) => string,
): IDataObject {
	return checkProfile(read, pickProfileKeys(read, source, label, 'refuse'), label);
}
