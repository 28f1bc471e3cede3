import type { INodeProperties } from 'n8n-workflow';

import { additionalFields } from './descriptions';
import {
	OPTIONAL_PROFILE_KEYS,
	PROFILE_KEYS,
	profileLabel,
	profileParameter,
	type ProfileKey,
} from './profile';

/** What the editor shows of each profile key; the type makes a key of the table without a field fail. */
const FIELDS: Record<ProfileKey, Omit<INodeProperties, 'displayName' | 'name'>> = {
	url: {
		type: 'string',
		default: '',
		placeholder: 'e.g. https://www.example.com/biz/some-business',
		description: 'Address of the review profile to collect',
	},
	query: {
		type: 'string',
		default: '',
		placeholder: 'e.g. Pizza Palace Berlin Mitte',
		description: 'Search query that shows the listing (Google review profiles only)',
	},
	place_id: {
		type: 'string',
		default: '',
		placeholder: 'e.g. ChIJN1t_tDeuEmsRUsoyG83frY4',
		description: 'Place identifier of a Google profile',
	},
	// A date-only picker stores "YYYY-MM-DD", what the service takes and what the text field this
	// was held, so saved values show and read as before; an expression's timestamp is cut to its day.
	from_date: {
		type: 'dateTime',
		typeOptions: { dateOnly: true },
		default: '',
		description:
			'Only reviews published on or after this day are collected. For the reviews new since an earlier job, use Only Reviews Since Job.',
	},
	blocks: {
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 10,
		description: 'Number of latest reviews to collect',
	},
	diff: {
		type: 'string',
		default: '',
		placeholder: 'e.g. 10001',
		description:
			'The job_id of an earlier job of this profile: only reviews that job did not collect are fetched. Not a date: for one, use Reviews Since.',
	},
	callback: {
		type: 'string',
		default: '',
		placeholder: 'e.g. https://your-n8n.example.com/webhook/reviews',
		description:
			'Address that receives the reviews when the job is complete, for example the production URL of a Scraping Callback Trigger or Webhook node',
	},
	external_identifier: {
		type: 'string',
		default: '',
		description:
			'Your own reference for the job, at most 255 characters (a limit of the review API); always included in the callback payload',
	},
};

/** A profile key's node field; `changes` for a node that shows it otherwise. */
export function profileField(
	key: ProfileKey,
	changes: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: profileLabel(key),
		name: profileParameter(key),
		...FIELDS[key],
		...changes,
	} as INodeProperties;
}

/** Profile → Add's fields (and Add Many's, Define Below): the identifiers and callback, then the rest. */
export const profileFields: INodeProperties[] = [
	{
		displayName: 'Fill at least one of Profile URL, Search Query and Place ID',
		name: 'identifierNotice',
		type: 'notice',
		default: '',
	},
	...PROFILE_KEYS.filter((key) => !OPTIONAL_PROFILE_KEYS.includes(key)).map((key) =>
		profileField(key),
	),
	additionalFields(
		OPTIONAL_PROFILE_KEYS.map((key) => profileField(key)).sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	),
];
