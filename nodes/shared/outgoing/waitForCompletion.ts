import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	awaitedJobKey,
	decodeAwaitedJob,
	digestToken,
	encodeAwaitedJob,
	resumeCallbackAddress,
} from '../awaitedJob';
import { requireExecutionCustomData } from '../executionCustomData';
import { FieldReader } from './validation';

/**
 * Two days. The service retries a refused callback 2, 6 and 24 hours after the first failure, so
 * a result whose first delivery met n8n's 409 (sent before the execution was saved as waiting) or
 * any other refusal still finds this execution waiting at the last retry of a job finished within
 * a day.
 */
export const DEFAULT_TIME_LIMIT_MINUTES = 2880;

/** The field every resumed item carries, so a time-out (input items passed on) is easy to tell apart. */
export const WAIT_STATUS_FIELD = 'wait_status';

const TIME_LIMIT_DESCRIPTION =
	"How long to wait for the results before the workflow goes on without them. The default (2 days) covers the service's retries of a refused callback, 2, 6 and 24 hours after the first attempt.";

const MINUTES_PER_UNIT: Record<string, number> = { minutes: 1, hours: 60, days: 1440 };

export const waitForCompletionFields: INodeProperties[] = [
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
			'Results come back to this execution as one item, records in "results" or "reviews": add Split Out on that field for one item per record. A failed job stops this node; after the time limit the input items go on without "wait_status". n8n refuses deliveries over its body limit (16 MiB by default, ~20,000 reviews).',
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
		displayOptions: { show: { waitForCompletion: [true], '@version': [{ _cnd: { lt: 1.2 } }] } },
	},
	{
		displayName: 'Time Limit',
		name: 'waitTimeLimitAmount',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 2,
		description: TIME_LIMIT_DESCRIPTION,
		displayOptions: { show: { waitForCompletion: [true], '@version': [{ _cnd: { gte: 1.2 } }] } },
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
		displayOptions: { show: { waitForCompletion: [true], '@version': [{ _cnd: { gte: 1.2 } }] } },
	},
];

/**
 * A submit operation's fields with the wait options placed just before the callback field they
 * replace (hidden while waiting: the node fills the callback itself), and a hint on that field.
 */
export function withWaitForCompletion(
	properties: INodeProperties[],
	{ callbackParameter }: Waiting,
): INodeProperties[] {
	return properties.flatMap((property) =>
		property.name === callbackParameter
			? [
					...waitForCompletionFields.map((field) => ({
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

/** Reads a parameter of the waiting node, in execute() (for its item) or in the resume webhook. */
export type ParameterReader = (name: string, fallback: unknown) => unknown;

/**
 * What a submit operation waits on when Wait for Completion is on. The router applies it: it fills
 * `callbackParameter` with this execution's resume address, sends, and puts the execution to wait
 * for the acknowledgement's `idField`; the shared resume webhook (incoming/resume.ts) turns the
 * delivery into items with `resumedItems`.
 */
export interface Waiting {
	/** The callback parameter the node fills itself while waiting (and hides). */
	callbackParameter: string;
	/** The field of the acknowledgement that the callback will carry. */
	idField: 'job_id' | 'request_id';
	/** Whether the service answered with the results at once: then there is nothing to wait for. */
	answeredAtOnce?: (answer: IDataObject) => boolean;
	/** What waited-for results become, answered at once or delivered; `oneResumedItem` if unset. */
	resumedItems?: (payload: IDataObject, node: INode, parameter: ParameterReader) => IDataObject[];
}

/** Marks results that reached this node through its callback rather than from a time-out. */
export function completedResults(results: IDataObject[]): IDataObject[] {
	return results.map((json) => ({
		...json,
		[WAIT_STATUS_FIELD]: 'completed',
		outcome: 'completed',
	}));
}

/**
 * One resumed item holding the delivery's records. n8n links resumed item i to the waiting node's
 * input item i whatever the webhook says (`addPairedItemLineage`), and a waiting node has one input
 * item: a second resumed item would point at an input item that does not exist, and
 * `$('Earlier node').item` in any later node would fail. Split Out on the records list gives one
 * item per record with the link kept.
 */
export function oneResumedItem(payload: IDataObject): IDataObject[] {
	const records = Array.isArray(payload.results) ? payload.results : payload.reviews;
	const count = Array.isArray(records) ? records.length : 0;
	return [{ ...payload, result_count: payload.result_count ?? count }];
}

export function isWaitingRequested(this: IExecuteFunctions, itemIndex: number): boolean {
	return this.getNodeParameter('waitForCompletion', itemIndex, false) as boolean;
}

/**
 * The address the service is to call back: this execution's resume URL. One execution can be
 * resumed once, by one callback: waiting on several items would need several callbacks, so it is
 * refused before anything is sent.
 */
export function claimResumeUrl(this: IExecuteFunctions, itemIndex: number): string {
	const itemCount = this.getInputData().length;
	if (itemCount > 1) {
		throw new NodeOperationError(
			this.getNode(),
			`Wait for Completion works with one input item, got ${itemCount}`,
			{
				itemIndex,
				description:
					'An execution resumes once per wait, for one item. Put this node inside Loop Over Items with a batch size of 1: each item waits in turn and every result comes back in this execution, linked to its item. (Execute Workflow "once for each item" into a sub-workflow that waits does not work on n8n 2.41: the parent resumes with the first sub-workflow\'s results only.) Or turn Wait for Completion off and receive the results with a Scraping Callback Trigger.',
			},
		);
	}
	// Community nodes get $execution.resumeUrl, not getSignedResumeUrl(), which n8n accepts only for
	// its own send-and-wait nodes.
	const resumeUrl = String(this.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
	const { url, token } = resumeCallbackAddress(resumeUrl, this.getNode().id);
	// The submitted ID is kept in the execution's custom data, which n8n caps at 10 keys: claim the
	// slot before the job is submitted, so a full store fails here and not after the job exists.
	const key = awaitedJobKey(this.getNode().id);
	const customData = requireExecutionCustomData.call(this, itemIndex);
	const claim = encodeAwaitedJob({ tokenDigest: token && digestToken(token) });
	customData.set(key, claim);
	if (customData.get(key) !== claim) {
		throw new NodeOperationError(
			this.getNode(),
			"Wait for Completion needs a free slot in the execution's custom data",
			{
				itemIndex,
				description:
					'n8n keeps at most 10 custom data entries per execution and this one has no room left.',
			},
		);
	}
	return url;
}

/**
 * The time limit in minutes, read and checked before anything is sent: an amount and a unit from
 * node version 1.2, minutes before it (as workflows saved with those versions keep).
 */
export function readTimeLimitMinutes(this: IExecuteFunctions, itemIndex: number): number {
	const read = new FieldReader(this.getNode(), itemIndex);
	if (this.getNode().typeVersion < 1.2) {
		const minutes = Number(
			this.getNodeParameter('waitTimeLimit', itemIndex, DEFAULT_TIME_LIMIT_MINUTES),
		);
		return Number.isFinite(minutes) ? Math.max(1, minutes) : DEFAULT_TIME_LIMIT_MINUTES;
	}
	const amount = read.requiredInteger(
		'Time Limit',
		this.getNodeParameter('waitTimeLimitAmount', itemIndex, 2),
		{ min: 1 },
	);
	const unit = String(this.getNodeParameter('waitTimeLimitUnit', itemIndex, 'days'));
	const perUnit = MINUTES_PER_UNIT[unit];
	if (perUnit === undefined) {
		throw read.fail('Time Limit Unit', `must be minutes, hours or days, got "${unit}"`);
	}
	return amount * perUnit;
}

/**
 * The item's output once the submission is acknowledged: the results when the service answered
 * with them at once, else the acknowledgement, with the execution put to wait for its callback.
 */
export async function awaitCompletion(
	this: IExecuteFunctions,
	itemIndex: number,
	waiting: Waiting,
	timeLimitMinutes: number,
	answer: IDataObject | null | undefined,
): Promise<IDataObject[]> {
	const acknowledgement = answer ?? {};
	if (waiting.answeredAtOnce?.(acknowledgement)) {
		const parameter: ParameterReader = (name, fallback) =>
			this.getNodeParameter(name, itemIndex, fallback);
		const toItems = waiting.resumedItems ?? oneResumedItem;
		return completedResults(toItems(acknowledgement, this.getNode(), parameter));
	}
	const expectedId = acknowledgement[waiting.idField];
	if (expectedId === undefined || expectedId === null) {
		throw new NodeOperationError(this.getNode(), 'The service did not return an ID to wait for', {
			itemIndex,
		});
	}
	const key = awaitedJobKey(this.getNode().id);
	const customData = requireExecutionCustomData.call(this, itemIndex);
	const { tokenDigest } = decodeAwaitedJob(customData.get(key)) ?? {};
	customData.set(key, encodeAwaitedJob({ id: String(expectedId), tokenDigest }));
	await this.putExecutionToWait(new Date(Date.now() + timeLimitMinutes * 60_000));
	return [acknowledgement];
}
