import type { INodeProperties } from 'n8n-workflow';

import { SCHEDULE_TARGETS, type ScheduleService, type ScheduleTarget } from '../../endpoints';

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

export const SERVICE_OPTIONS: Array<{ name: string; value: ScheduleService }> = [
	{ name: 'Review Index API', value: 'riapi' },
	{ name: 'Review Profiles (Review Scraper API)', value: 'rsapi' },
];

/** The editor's words for each schedule target; a target without them fails to compile. */
const TARGET_LABELS: {
	[S in ScheduleService]: Record<ScheduleTarget<S>, { name: string; description?: string }>;
} = {
	rsapi: {
		add: { name: 'Add', description: 'Queue one review profile' },
		add_bulk: { name: 'Add Many', description: 'Queue a list of review profiles' },
	},
	riapi: { profiles: { name: 'Profiles' }, reviews: { name: 'Reviews' } },
};

const targetOptions = <S extends ScheduleService>(service: S) =>
	SCHEDULE_TARGETS[service].map((value: ScheduleTarget<S>) => ({
		...TARGET_LABELS[service][value],
		value,
	}));

/** The endpoints of the review scraper API a schedule can call. */
export const REVIEW_SCRAPER_ENDPOINT_OPTIONS = targetOptions('rsapi');

/** The endpoints of the review index API a schedule can call. */
export const REVIEW_INDEX_ENDPOINT_OPTIONS = targetOptions('riapi');
