import type { IDataObject, IWorkflowMetadata } from 'n8n-workflow';

import type { DeliveryMemory } from '../shared/incoming/trigger/recentDeliveries';

import {
	profileFromParameters,
	type ProfileKey,
	type RawProfile,
} from '../shared/outgoing/profile';
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

/** What the trigger keeps in the workflow's static data about the schedule it owns. */
export interface TriggerState extends DeliveryMemory {
	scheduleId?: number;
	secret?: string;
	/** The webhook URL the schedule delivers to, without the secret. */
	callbackBase?: string;
	/** When the schedule was created: a silence before its first run is counted from here. */
	createdAt?: string;
	/** The schedule's condition last told on Schedule Notices, and which schedule it was. */
	toldCondition?: string;
	toldScheduleId?: number;
	/** Set from an `unreadable` notice until reads work again. */
	unreadableTold?: boolean;
}

export function scheduleNameFor(workflow: IWorkflowMetadata): string {
	return `n8n: ${workflow.name ?? workflow.id}`.slice(0, 100);
}

/** Reads a node parameter, with a fallback: any n8n context's getNodeParameter. */
export interface ParameterSource {
	getNodeParameter(name: string, fallback?: unknown): unknown;
}

/** The trigger's settings as the workflow holds them, read the same way on activation and mending. */
export function triggerSettings(context: ParameterSource): TriggerSettings {
	const parameter = (name: string, fallback: unknown = '') =>
		context.getNodeParameter(name, fallback) as never;
	return {
		collect: parameter('collect', 'profile'),
		frequency: parameter('frequency', 'daily'),
		profiles: parameter('profiles', '[]'),
		reviewIndexEndpoint: parameter('reviewIndexEndpoint', 'profiles'),
		reviewIndexParameters: parameter('reviewIndexParameters', '{}'),
		profile: profileFromParameters(TRIGGER_PROFILE_KEYS, (name) => parameter(name, undefined)),
	};
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
