import type { INodeProperties } from 'n8n-workflow';

import type { ProfileKey } from '../shared/outgoing/profile';
import { profileField } from '../shared/outgoing/profileFields';
import {
	frequencyField,
	REVIEW_INDEX_ENDPOINT_OPTIONS,
} from '../shared/outgoing/schedule/scheduleOptions';
import {
	dedupeOption,
	deliveryOptions,
	largeDeliveriesOption,
	splitResultsOption,
} from '../shared/incoming/trigger/options';
import { allowPrivateCallbackOption } from '../shared/outgoing/callbackReachability';
import { TRIGGER_PROFILE_KEYS } from './schedule';
import { mendScheduleOption, scheduleCheckOption } from './scheduleHealth';

/** Where the trigger's profile fields differ from Profile → Add's. */
const TRIGGER_FIELD_CHANGES: Partial<Record<ProfileKey, Partial<INodeProperties>>> = {
	url: {
		description:
			'Address of the review profile to collect. Fill at least one of Profile URL, Search Query and Place ID.',
	},
	// Starts at 0, not Add's 10: a saved trigger's 0 is not stored, so a new default would change what
	// it sends, and this node cannot take a new version (n8n reads Receive Large Deliveries from a
	// type version 1 start node only). 0 sends nothing, as Add does while the field is not added.
	blocks: {
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			'Number of latest reviews to collect each time. 0 sends none and leaves the count to the service, as Profile → Add does until Latest Reviews Count is added.',
	},
};

export const COLLECT_OPTIONS = [
	{ name: 'One Review Profile', value: 'profile' },
	{ name: 'A List of Review Profiles', value: 'profileList' },
	{ name: 'Review Index Request', value: 'reviewIndex' },
];

export const properties: INodeProperties[] = [
	{
		displayName:
			"Activating the workflow creates a schedule on the service that delivers to this trigger; deactivating it deletes the schedule. A first crawl over n8n's body limit (16 MiB by default) is lost unless Options → Receive Large Deliveries is on.",
		name: 'lifecycleNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Collect',
		name: 'collect',
		type: 'options',
		options: COLLECT_OPTIONS,
		default: 'profile',
	},
	frequencyField,
	...TRIGGER_PROFILE_KEYS.map((key) =>
		profileField(key, {
			...TRIGGER_FIELD_CHANGES[key],
			displayOptions: { show: { collect: ['profile'] } },
		}),
	),
	{
		displayName: 'Profiles (JSON List)',
		name: 'profiles',
		type: 'json',
		default: '[\n  { "url": "https://www.example.com/biz/one" }\n]',
		description:
			'Profiles, each with a URL, query or place_id (keys in lowercase; optional from_date, blocks, diff, external_identifier); the trigger sets each callback',
		displayOptions: { show: { collect: ['profileList'] } },
	},
	{
		displayName: 'Review Index Endpoint',
		name: 'reviewIndexEndpoint',
		type: 'options',
		options: REVIEW_INDEX_ENDPOINT_OPTIONS,
		default: 'profiles',
		displayOptions: { show: { collect: ['reviewIndex'] } },
	},
	{
		displayName: 'Review Index Parameters (JSON)',
		name: 'reviewIndexParameters',
		type: 'json',
		default: '{}',
		description: 'Query parameters for the review index request; the service adds its API key',
		displayOptions: { show: { collect: ['reviewIndex'] } },
	},
	deliveryOptions([
		allowPrivateCallbackOption,
		dedupeOption,
		mendScheduleOption,
		largeDeliveriesOption,
		scheduleCheckOption,
		splitResultsOption,
	]),
];
