import type { INodeProperties } from 'n8n-workflow';

export const FREQUENCY_OPTIONS = [
	{ name: 'Daily', value: 'daily' },
	{ name: 'Weekly', value: 'weekly' },
	{ name: 'Monthly', value: 'monthly' },
];

export const FREQUENCIES = FREQUENCY_OPTIONS.map(({ value }) => value);

export const frequencyField: INodeProperties = {
	displayName: 'Frequency',
	name: 'frequency',
	type: 'options',
	options: FREQUENCY_OPTIONS,
	default: 'daily',
};

export const SERVICE_OPTIONS = [
	{ name: 'Review Index API', value: 'riapi' },
	{ name: 'Review Profiles (Review Scraper API)', value: 'rsapi' },
];

/** The endpoints of the review scraper API a schedule can call. */
export const REVIEW_SCRAPER_ENDPOINT_OPTIONS = [
	{ name: 'Add', value: 'add', description: 'Queue one review profile' },
	{ name: 'Add Many', value: 'add_bulk', description: 'Queue a list of review profiles' },
];

/** The endpoints of the review index API a schedule can call. */
export const REVIEW_INDEX_ENDPOINT_OPTIONS = [
	{ name: 'Profiles', value: 'profiles' },
	{ name: 'Reviews', value: 'reviews' },
];
