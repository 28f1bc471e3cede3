import type { IDataObject } from 'n8n-workflow';

import type { FieldReader } from './validation';

/** The spec's "Limits" set this for review profile jobs only; scrapers take longer identifiers. */
export const EXTERNAL_IDENTIFIER_MAX_LENGTH = 255;

/**
 * The parameters of a review profile job (the spec's "Review profiles and jobs"), keyed as the
 * service names them.
 */
export const PROFILE_KEYS = [
	'url',
	'query',
	'place_id',
	'from_date',
	'blocks',
	'diff',
	'callback',
	'external_identifier',
] as const;

export type ProfileKey = (typeof PROFILE_KEYS)[number];

export type RawProfile = Partial<Record<ProfileKey, unknown>>;

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
 * Checks one profile against the spec's "Review profiles and jobs" and returns what to send, empty
 * values left out. Every way a profile reaches the service (Add, Add Many, scheduled add and
 * add_bulk) goes through here, so each is cleaned the same way. `label` turns a key into the name
 * the user sees.
 */
export function checkProfile(
	read: FieldReader,
	raw: RawProfile,
	label: (key: ProfileKey) => string,
): IDataObject {
	const profile: IDataObject = {
		url: read.optionalUrl(label('url'), raw.url),
		query: read.optionalString(label('query'), raw.query),
		place_id: read.optionalString(label('place_id'), raw.place_id),
		callback: read.optionalUrl(label('callback'), raw.callback),
		from_date: read.optionalDate(label('from_date'), raw.from_date),
		blocks: read.optionalInteger(label('blocks'), raw.blocks, { min: 1 }),
		diff: read.optionalInteger(label('diff'), raw.diff, { min: 1 }),
		external_identifier: read.optionalString(
			label('external_identifier'),
			raw.external_identifier,
			EXTERNAL_IDENTIFIER_MAX_LENGTH,
		),
	};
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
