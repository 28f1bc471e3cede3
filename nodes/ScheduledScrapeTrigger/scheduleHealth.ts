import type { CronExpression, IDataObject, INodeProperties } from 'n8n-workflow';

/** What a look at the trigger's schedule found. */
export type ScheduleCondition = 'healthy' | 'disabled' | 'gone' | 'silent';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Time between two runs of a schedule of each frequency (a month at its longest). */
const PERIOD_MS: Record<string, number> = {
	daily: DAY_MS,
	weekly: 7 * DAY_MS,
	monthly: 31 * DAY_MS,
};

/**
 * How long a schedule may go without a successful run before the trigger says so: two of its
 * periods. One missed run is not news (the service skips a run while the last one is pending,
 * and a job in maintenance is crawled again up to 72 hours later); a second one is.
 */
export function silenceAllowedMs(frequency: string): number {
	return 2 * (PERIOD_MS[frequency] ?? DAY_MS);
}

export const SCHEDULE_CHECK_OPTIONS = [
	{
		name: 'Automatic (Fits the Frequency)',
		value: 'auto',
		description:
			'Every hour for a daily schedule, four times a day for a weekly one, once a day for a monthly one',
	},
	{ name: 'Every 10 Seconds (for Trying It Out)', value: 'tenSeconds' },
	{ name: 'Every 15 Minutes', value: 'quarterHour' },
	{ name: 'Every Hour', value: 'hour' },
	{ name: 'Every Minute', value: 'minute' },
	{ name: 'Off', value: 'off', description: 'Nothing tells the workflow when the schedule stops' },
];

/**
 * A cron expression (seconds first) for looking at the schedule. The second and minute of each
 * look come from `spread` so that many triggers do not all read at the top of the hour.
 */
export function checkCron(check: string, frequency: string, spread: number): CronExpression | null {
	const second = spread % 60;
	const minute = Math.floor(spread / 60) % 60;
	const hour = Math.floor(spread / 3600) % 24;
	const every = check === 'auto' ? (AUTOMATIC_CHECK[frequency] ?? 'hour') : check;
	const expressions: Record<string, string> = {
		tenSeconds: '*/10 * * * * *',
		minute: `${second} * * * * *`,
		quarterHour: `${second} ${minute % 15}/15 * * * *`,
		hour: `${second} ${minute} * * * *`,
		sixHours: `${second} ${minute} ${hour % 6}/6 * * *`,
		day: `${second} ${minute} ${hour} * * *`,
	};
	return (expressions[every] as CronExpression | undefined) ?? null;
}

const AUTOMATIC_CHECK: Record<string, string> = {
	daily: 'hour',
	weekly: 'sixHours',
	monthly: 'day',
};

/** A number from 0 to 86,399 that stays the same for the same text. */
export function spreadOf(text: string): number {
	let hash = 0;
	for (const character of text) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
	return hash % 86_400;
}

/** `YYYY-MM-DDThh:mm:ss` without a zone, as the service writes it, read as UTC. */
function parseServiceTime(value: unknown): number | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const zoned = /[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`;
	const time = Date.parse(zoned);
	return Number.isNaN(time) ? undefined : time;
}

/**
 * What the schedule's record says: gone, disabled, silent (no successful run for longer than its
 * frequency allows, counted from `watchedSince` before its first one) or healthy.
 */
export function assessSchedule(
	schedule: IDataObject | undefined,
	frequency: string,
	now: number,
	watchedSince: number,
): ScheduleCondition {
	if (schedule === undefined) return 'gone';
	const { disabled } = schedule;
	if (disabled === true) return 'disabled';
	const lastRun = parseServiceTime(schedule.last_successful_run) ?? watchedSince;
	return now - lastRun > silenceAllowedMs(frequency) ? 'silent' : 'healthy';
}

export interface NoticeFacts {
	condition: ScheduleCondition;
	/** The condition last told to the workflow ('healthy' before any notice). */
	previous: ScheduleCondition;
	scheduleId: number;
	schedule: IDataObject | undefined;
	frequency: string;
	noticedAt: Date;
	/** Set when the trigger replaced the schedule on this look. */
	mended?: { scheduleId: number } | { error: string };
	mendOn: boolean;
}

const WHAT_IT_MEANS: Record<Exclude<ScheduleCondition, 'healthy'>, string> = {
	disabled:
		'The service disabled it (after 10 failed runs in a row, or when the account ran out of credits): it runs no more, and no reviews arrive.',
	gone: 'It no longer exists on the service (deleted outside this workflow): no reviews arrive.',
	silent: 'It is enabled but has had no successful run for longer than its frequency allows.',
};

function whatToDo(facts: NoticeFacts): string {
	const mended = facts.mended;
	if (mended && 'scheduleId' in mended) {
		return `The trigger replaced it with schedule ${mended.scheduleId} (same settings and secret); its first run collects from the start.`;
	}
	if (mended) return `The trigger could not replace it: ${mended.error}`;
	if (facts.condition === 'silent') {
		return 'Check its runs with Scraping Scheduler → Get, and the jobs of its profiles.';
	}
	return facts.mendOn
		? 'The trigger will replace it at its next look.'
		: 'Turn on Options → Mend Schedule, or unpublish and publish the workflow again, to get a new one.';
}

/** The item the trigger sends on its Schedule Notices output. */
export function scheduleNotice(facts: NoticeFacts): IDataObject {
	const { condition, previous, scheduleId, schedule } = facts;
	const message =
		condition === 'healthy'
			? `Schedule ${scheduleId} is running again (it was ${previous}).`
			: `Schedule ${scheduleId} is ${condition}. ${WHAT_IT_MEANS[condition]} ${whatToDo(facts)}`;
	return {
		notice: condition === 'healthy' ? 'recovered' : condition,
		message,
		scheduleId,
		scheduleName: schedule?.schedule_name ?? null,
		frequency: facts.frequency,
		lastSuccessfulRun: schedule?.last_successful_run ?? null,
		noticedAt: facts.noticedAt.toISOString(),
		...(condition === 'healthy' ? { previousNotice: previous } : {}),
		...(facts.mended ? { mended: facts.mended } : {}),
	};
}

/** Why the trigger could not read its schedule, from the last failed read. */
export interface ReadFailure {
	scheduleId: number;
	frequency: string;
	/** The service's words (or the network's), and where: no request content, no key. */
	serviceMessage: string;
	details: string | null;
	httpCode: string | null;
	failingSince: Date;
	noticedAt: Date;
}

/** Whether a failed read says that the key is refused (401) or not allowed (403). */
export const isRefusedKey = (httpCode: string | null) => httpCode === '401' || httpCode === '403';

/** The item sent once when the trigger cannot read its schedule (see the watcher). */
export function unreadableNotice(failure: ReadFailure): IDataObject {
	const { scheduleId, serviceMessage, httpCode } = failure;
	const cause = isRefusedKey(httpCode)
		? `the service refused the Scraping API credential (${serviceMessage}). Check the credential: its API key may have been revoked or rotated; update it in n8n.`
		: `its reads have failed since ${failure.failingSince.toISOString()} (${serviceMessage}). Check the credential's Scheduling URL and the service's status; the trigger keeps trying at each check.`;
	return {
		notice: 'unreadable',
		message: `The trigger cannot read schedule ${scheduleId}: ${cause} Until it can, it cannot tell whether the schedule runs, is disabled or is gone.`,
		scheduleId,
		scheduleName: null,
		frequency: failure.frequency,
		lastSuccessfulRun: null,
		noticedAt: failure.noticedAt.toISOString(),
		serviceMessage,
		details: failure.details,
		httpCode,
		failingSince: failure.failingSince.toISOString(),
	};
}

/** The item sent once when reads work again after an `unreadable` notice. */
export function readableNotice(
	facts: Pick<NoticeFacts, 'condition' | 'scheduleId' | 'schedule' | 'frequency' | 'noticedAt'>,
): IDataObject {
	const { condition, scheduleId, schedule } = facts;
	return {
		notice: 'readable',
		message: `The trigger can read schedule ${scheduleId} again: it is ${condition}.`,
		scheduleId,
		scheduleName: schedule?.schedule_name ?? null,
		frequency: facts.frequency,
		lastSuccessfulRun: schedule?.last_successful_run ?? null,
		noticedAt: facts.noticedAt.toISOString(),
		previousNotice: 'unreadable',
	};
}

export const scheduleCheckOption: INodeProperties = {
	displayName: 'Schedule Check',
	name: 'scheduleCheck',
	type: 'options',
	options: SCHEDULE_CHECK_OPTIONS,
	default: 'auto',
	description:
		'How often the trigger reads its schedule while the workflow is published, to tell the workflow (on the Schedule Notices output) once when the service disabled it, it was deleted, its runs stopped or the trigger cannot read it, and once when that ends. Reading schedules costs no credits.',
};

export const mendScheduleOption: INodeProperties = {
	displayName: 'Mend Schedule',
	name: 'mendSchedule',
	type: 'boolean',
	default: false,
	description:
		"Whether to replace the schedule when the service disabled it or it was deleted, with the same settings and secret (the service cannot enable a schedule again). The new schedule's first run collects each profile from the start, not only new reviews, and uses credits for it; an account out of credits gets its new schedule disabled again at its first run.",
};
