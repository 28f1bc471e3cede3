import type { INodeProperties } from 'n8n-workflow';

import type { Waiting } from './declaration';

/**
 * Two days. The service retries a refused callback 2, 6 and 24 hours after the first failure, so
 * a result whose first delivery met n8n's 409 (sent before the execution was saved as waiting) or
 * any other refusal still finds this execution waiting at the last retry of a job finished within
 * a day.
 */
export const DEFAULT_TIME_LIMIT_MINUTES = 2880;

const TIME_LIMIT_DESCRIPTION =
	"How long to wait for the results before the workflow goes on without them. The default (2 days) covers the service's retries of a refused callback, 2, 6 and 24 hours after the first attempt. A job the service keeps in maintenance can complete up to 72 hours later, and a failed one never calls back: for such jobs, raise it or send them to a Scraping Callback Trigger instead.";

export const MINUTES_PER_UNIT: Record<string, number> = { minutes: 1, hours: 60, days: 1440 };

/** The wait fields of a node whose time limit is an amount and a unit from `inUnitsFrom`. */
const waitForCompletionFields = (inUnitsFrom: number): INodeProperties[] => [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to pause the workflow until the service delivers the results to this execution, instead of returning the acknowledgement at once. The node fills in the callback itself; no polling.',
	},
	{
		displayName:
			'The service must reach n8n (N8N_WEBHOOK_URL, WEBHOOK_URL on n8n 1.x: its public URL); n8n refuses deliveries over its 16 MiB body limit. Results come as one item (Split Out: one per record); an invalid_url or failed delivery stops this node; with none by the time limit (failed review jobs never call back) the items go on without "wait_status".',
		name: 'waitNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	{
		displayName: 'Time Limit (Minutes)',
		name: 'waitTimeLimit',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_TIME_LIMIT_MINUTES,
		description: TIME_LIMIT_DESCRIPTION,
		displayOptions: {
			show: { waitForCompletion: [true], '@version': [{ _cnd: { lt: inUnitsFrom } }] },
		},
	},
	{
		displayName: 'Time Limit',
		name: 'waitTimeLimitAmount',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 2,
		description: TIME_LIMIT_DESCRIPTION,
		displayOptions: {
			show: { waitForCompletion: [true], '@version': [{ _cnd: { gte: inUnitsFrom } }] },
		},
	},
	{
		displayName: 'Time Limit Unit',
		name: 'waitTimeLimitUnit',
		type: 'options',
		options: [
			{ name: 'Days', value: 'days' },
			{ name: 'Hours', value: 'hours' },
			{ name: 'Minutes', value: 'minutes' },
		],
		default: 'days',
		displayOptions: {
			show: { waitForCompletion: [true], '@version': [{ _cnd: { gte: inUnitsFrom } }] },
		},
	},
];

/**
 * A submit operation's fields with the wait options placed just before the callback field they
 * replace (hidden while waiting: the node fills the callback itself), and a hint on that field.
 */
export function withWaitForCompletion(
	properties: INodeProperties[],
	{ callbackParameter, timeLimitInUnitsFrom }: Waiting,
): INodeProperties[] {
	return properties.flatMap((property) =>
		property.name === callbackParameter
			? [
					...waitForCompletionFields(timeLimitInUnitsFrom).map((field) => ({
						...field,
						displayOptions: mergeShow(field.displayOptions, property.displayOptions),
					})),
					{
						...property,
						hint: 'Or turn on Wait for Completion above: the node fills this in and this workflow waits for the results',
						displayOptions: {
							...property.displayOptions,
							hide: { ...property.displayOptions?.hide, waitForCompletion: [true] },
						},
					},
				]
			: [property],
	);
}

/** A wait field shows where its callback field shows (its resource and operation). */
function mergeShow(
	own: INodeProperties['displayOptions'],
	callback: INodeProperties['displayOptions'],
): INodeProperties['displayOptions'] {
	if (!callback?.show && !own?.show) return own;
	return { ...own, show: { ...callback?.show, ...own?.show } };
}
