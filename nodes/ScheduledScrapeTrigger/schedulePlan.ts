import type { IDataObject } from 'n8n-workflow';

import { buildSchedulePayload } from '../shared/schedule/payload';
import type { FieldReader } from '../shared/validation';
import { parseJsonParameter } from '../shared/validation';

export interface TriggerSettings {
	collect: 'profile' | 'profileList' | 'reviewIndex';
	frequency: string;
	url?: string;
	query?: string;
	placeId?: string;
	blocks?: unknown;
	externalIdentifier?: string;
	profiles?: unknown;
	reviewIndexEndpoint?: string;
	reviewIndexParameters?: unknown;
}

/**
 * The schedule body for what the trigger collects, with `callback` (this trigger's own webhook
 * URL, secret included) put where the target API expects it.
 */
export function schedulePayloadFor(
	read: FieldReader,
	settings: TriggerSettings,
	callback: string,
	scheduleName: string,
): IDataObject {
	const common = { frequency: settings.frequency, scheduleName };
	if (settings.collect === 'profileList') {
		const profiles = (parseJsonParameter(read, 'Profiles (JSON List)', settings.profiles, 'list') ??
			[]) as IDataObject[];
		return buildSchedulePayload(read, {
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
		return buildSchedulePayload(read, {
			...common,
			service: 'riapi',
			endpoint: settings.reviewIndexEndpoint,
			queryParams: { ...queryParams, callback },
		});
	}
	const queryParams: IDataObject = { callback };
	if (settings.url) queryParams.url = settings.url;
	if (settings.query) queryParams.query = settings.query;
	if (settings.placeId) queryParams.place_id = settings.placeId;
	if (settings.blocks !== undefined && settings.blocks !== '' && settings.blocks !== 0) {
		queryParams.blocks = settings.blocks;
	}
	if (settings.externalIdentifier) queryParams.external_identifier = settings.externalIdentifier;
	return buildSchedulePayload(read, { ...common, service: 'rsapi', endpoint: 'add', queryParams });
}
