import type { IDataObject } from 'n8n-workflow';

import type { FieldReader } from './validation';

export const EXTERNAL_IDENTIFIER_MAX_LENGTH = 255;

/** The parameters of a review profile job (spec 4.5), keyed as the service names them. */
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

/**
 * Checks one profile against spec 4.5 and returns what to send, empty values left out.
 * `label` turns a key into the name the user sees, so errors name the field as the user typed it.
 */
export function checkProfile(
	read: FieldReader,
	raw: Partial<Record<ProfileKey, unknown>>,
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
