import type { IDataObject } from 'n8n-workflow';

import type { ProfileKey, RawProfile } from '../shared/outgoing/profile';
import { buildScheduleBody } from '../shared/outgoing/schedule/scheduleBody';
import { parseJsonParameter, type FieldReader } from '../shared/outgoing/validation';

/** The profile keys the trigger shows as fields of its own (One Review Profile). */
export const TRIGGER_PROFILE_KEYS: readonly ProfileKey[] = [
	'url',
	'query',
	'place_id',
	'blocks',
	'external_identifier',
];

export interface TriggerSettings {
	collect: 'profile' | 'profileList' | 'reviewIndex';
	frequency: string;
	profiles?: unknown;
	reviewIndexEndpoint?: string;
	reviewIndexParameters?: unknown;
	/** One Review Profile's fields, by service key, not yet checked. */
	profile: RawProfile;
}

/**
 * The Recurring Reviews Trigger's schedule body for what it collects, with `callback` (this trigger's own webhook
 * URL, secret included) put where the target API expects it.
 */
export function scheduleBodyFor(
	read: FieldReader,
	settings: TriggerSettings,
	callback: string,
	scheduleName: string,
): IDataObject {
	const common = { frequency: settings.frequency, scheduleName };
	if (settings.collect === 'profileList') {
		const profiles = (parseJsonParameter(read, 'Profiles (JSON List)', settings.profiles, 'list') ??
			[]) as IDataObject[];
		return buildScheduleBody(read, {
			...common,
			service: 'rsapi',
			endpoint: 'add_bulk',
			body: profiles.map((profile) => ({ ...profile, callback })),
		});
	}
	if (settings.collect === 'reviewIndex') {
		const queryParams = (parseJsonParameter(
			read,
			'Review Index Parameters (JSON)',
			settings.reviewIndexParameters,
			'object',
		) ?? {}) as IDataObject;
		return buildScheduleBody(read, {
			...common,
			service: 'riapi',
			endpoint: settings.reviewIndexEndpoint,
			queryParams: { ...queryParams, callback },
		});
	}
	// An empty field or a count of 0 leaves the value to the service.
	const queryParams: IDataObject = { callback };
	for (const [key, value] of Object.entries(settings.profile)) {
		if (value !== undefined && value !== '' && value !== 0) queryParams[key] = value;
	}
	return buildScheduleBody(read, { ...common, service: 'rsapi', endpoint: 'add', queryParams });
}
