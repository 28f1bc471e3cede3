import type {
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	normalizePayload,
	payloadId,
	payloadOutcome,
	recognizePayload,
	type Outcome,
} from './callbackPayload';
import {
	awaitedJobKey,
	decodeAwaitedJob,
	digestToken,
	encodeAwaitedJob,
	RESUME_TOKEN_PARAMETER,
	resumeCallbackAddress,
	tokenMatches,
} from './awaitedJob';
import {
	hasContextCustomData,
	readExecutionCustomData,
	requireExecutionCustomData,
} from './executionCustomData';
import type { ItemOutput, PreparedItem } from './operations';
import { redactEchoedSecrets } from './redact';

/**
 * Two days. The service retries a refused callback 2, 6 and 24 hours after the first failure, so
 * a result whose first delivery met n8n's 409 (sent before the execution was saved as waiting) or
 * any other refusal still finds this execution waiting at the last retry of a job finished within
 * a day.
 */
export const DEFAULT_TIME_LIMIT_MINUTES = 2880;

/** The field every resumed item carries, so a time-out (input items passed on) is easy to tell apart. */
export const WAIT_STATUS_FIELD = 'wait_status';

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
		description:
			"How long to wait for the results before the workflow goes on without them. The default (2 days) covers the service's retries of a refused callback, 2, 6 and 24 hours after the first attempt.",
		displayOptions: { show: { waitForCompletion: [true] } },
	},
];

/**
 * A submit operation's fields with the wait options placed just before the callback field they
 * replace (hidden while waiting: the node fills the callback itself), and a hint on that field.
 */
export function withWaitForCompletion(
	properties: INodeProperties[],
	callbackField: string,
): INodeProperties[] {
	return properties.flatMap((property) =>
		property.name === callbackField
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

/** Marks results that reached this node through its callback rather than from a time-out. */
export function completedResults(results: IDataObject[]): IDataObject[] {
	return results.map((json) => ({
		...json,
		[WAIT_STATUS_FIELD]: 'completed',
		outcome: 'completed',
	}));
}

/** The restart webhook that the resume URL (with the node ID as suffix) reaches, as n8n's own send-and-wait nodes declare it. */
export const callbackResumeWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
];

export function isWaitingRequested(this: IExecuteFunctions, itemIndex: number): boolean {
	return this.getNodeParameter('waitForCompletion', itemIndex, false) as boolean;
}

/**
 * One execution can be resumed once, by one callback: waiting on several items would need several
 * callbacks, so it is refused before anything is sent.
 */
export function resumeCallbackUrl(this: IExecuteFunctions, itemIndex: number): string {
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

export async function waitForCallback(
	this: IExecuteFunctions,
	itemIndex: number,
	expectedId: unknown,
): Promise<void> {
	if (expectedId === undefined || expectedId === null) {
		throw new NodeOperationError(this.getNode(), 'The service did not return an ID to wait for', {
			itemIndex,
		});
	}
	const minutes = Number(
		this.getNodeParameter('waitTimeLimit', itemIndex, DEFAULT_TIME_LIMIT_MINUTES),
	);
	const key = awaitedJobKey(this.getNode().id);
	const customData = requireExecutionCustomData.call(this, itemIndex);
	const { tokenDigest } = decodeAwaitedJob(customData.get(key)) ?? {};
	customData.set(key, encodeAwaitedJob({ id: String(expectedId), tokenDigest }));
	await this.putExecutionToWait(new Date(Date.now() + Math.max(1, minutes) * 60_000));
}

interface Submission {
	/** The submit request, given the callback the node fills in when it is to wait. */
	request: (resumeUrl: string | undefined) => PreparedItem['request'];
	/** The field of the acknowledgement that the callback will carry. */
	idField: 'job_id' | 'request_id';
	/** The output when the answer is final; the acknowledgement itself without it. */
	toOutput?: (answer: IDataObject) => ItemOutput;
	/** Whether the service answered with the results at once: then there is nothing to wait for. */
	answeredAtOnce?: (answer: IDataObject) => boolean;
	/** What waited-for results become, whether answered at once or delivered: as on resuming. */
	waitedResults?: (payload: IDataObject) => IDataObject[];
}

/** Submit, and with Wait for Completion on, put the execution to wait for the job's callback. */
export function prepareSubmission(
	this: IExecuteFunctions,
	itemIndex: number,
	submission: Submission,
): PreparedItem {
	const waiting = isWaitingRequested.call(this, itemIndex);
	const request = submission.request(waiting ? resumeCallbackUrl.call(this, itemIndex) : undefined);
	const toOutput = submission.toOutput ?? ((answer: IDataObject) => answer);
	return {
		request,
		toOutput: async (answer: IDataObject | null | undefined) => {
			const acknowledgement = answer ?? {};
			if (!waiting) return toOutput(acknowledgement);
			if (submission.answeredAtOnce?.(acknowledgement)) {
				return completedResults((submission.waitedResults ?? oneResumedItem)(acknowledgement));
			}
			await waitForCallback.call(this, itemIndex, acknowledgement[submission.idField]);
			return acknowledgement;
		},
	};
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

/**
 * Resumes the waiting execution with the delivered results, but only for the job or request it
 * submitted: the resume URL is secret, yet a callback for another job must not complete this one.
 * `toResults` turns the delivery into the node's items: `oneResumedItem` unless a node version
 * saved before it must keep its one item per record.
 */
export function resumeWithResults(
	this: IWebhookFunctions,
	toResults: (payload: IDataObject) => IDataObject[] = oneResumedItem,
): IWebhookResponseData {
	const payload = this.getBodyData();
	const awaited = decodeAwaitedJob(readExecutionCustomData(this, awaitedJobKey(this.getNode().id)));
	const deliveredId = payload && typeof payload === 'object' ? payloadId(payload) : undefined;
	const givenToken = (this.getQueryData() as IDataObject)[RESUME_TOKEN_PARAMETER];
	if (
		awaited?.id === undefined ||
		(awaited.tokenDigest !== undefined && !tokenMatches(givenToken, awaited.tokenDigest)) ||
		deliveredId !== awaited.id
	) {
		this.getResponseObject()
			.status(422)
			.json({ message: 'This callback does not belong to the job this execution is waiting for' });
		return { noWebhookResponse: true };
	}
	const delivered = redactEchoedSecrets(payload);
	const kind = recognizePayload(delivered);
	const outcome = payloadOutcome(delivered);
	// A status that is not final (or not known) is news, not the end: the execution keeps waiting
	// for the delivery that ends the work, and the sender learns it was received.
	if (outcome === 'pending') {
		return { webhookResponse: { received: true, waiting: true } };
	}
	const normalized = normalizePayload(kind, delivered);
	if (outcome !== 'completed') {
		const subject = `${kind === 'reviewJob' ? 'Job' : 'Request'} ${deliveredId}`;
		return resumeWithFailure.call(this, subject, deliveredId, outcome, normalized);
	}
	const results = toResults(normalized);
	// Work that completed with nothing found still resumes with one item, so the workflow goes on
	// and an If on wait_status sees it.
	const json = results.length > 0 ? results : [emptyResult(normalized)];
	const items: INodeExecutionData[] = completedResults(json).map((result) => ({ json: result }));
	return { webhookResponse: { received: true }, workflowData: [items] };
}

/** The delivered envelope without its (empty) records, and a count that says there were none. */
function emptyResult(payload: IDataObject): IDataObject {
	const { results: _results, reviews: _reviews, ...envelope } = payload;
	return { ...envelope, result_count: 0 };
}

function continuesOnError(node: ReturnType<IWebhookFunctions['getNode']>): boolean {
	return (
		node.continueOnFail === true ||
		node.onError === 'continueRegularOutput' ||
		node.onError === 'continueErrorOutput'
	);
}

/**
 * The callback is answered 200 (it was received; a retry would bring the same news), and the
 * node fails on resuming. n8n resumes a waiting node by passing the webhook's items through it,
 * so the error goes where n8n puts errors of resumed nodes: the resume entry's `resumeError`,
 * which n8n raises as this node's error (or turns into an error item with Continue On Fail).
 */
function resumeWithFailure(
	this: IWebhookFunctions,
	subject: string,
	jobId: string,
	outcome: Outcome,
	payload: IDataObject,
): IWebhookResponseData {
	const node = this.getNode();
	const status =
		typeof payload.crawl_status === 'string'
			? payload.crawl_status
			: String(payload.status ?? outcome);
	const message = `${subject} ended with status "${status}" (${outcome}), not completed`;
	const description =
		outcome === 'invalid_url'
			? 'The service could not collect from the given URL (invalid_url); it delivered no results. Check the profile URL, search query or place ID and submit again.'
			: `The service reported the request as "${status}"; it delivered no results.`;
	const errorItem: IDataObject = {
		error: message,
		[WAIT_STATUS_FIELD]: outcome,
		outcome,
		id: jobId,
		payload,
	};
	if (node.onError === 'continueErrorOutput') {
		// n8n rebuilds a resumed node's error output from the items of its first output whose JSON
		// holds only `error`, `message` and `details`, merged into the input item they came from
		// (handleNodeErrorOutput): an item put straight on the error output would be dropped.
		const { error, ...details } = errorItem;
		// n8n 1.x keeps an error item's JSON only when it is `error` alone or with `message`: there
		// the description goes in `message`, and the outcome is in the error's own words.
		const json = hasContextCustomData(this) ? { error, details } : { error, message: description };
		const item: INodeExecutionData = { json, pairedItem: { item: 0 } };
		return { webhookResponse: { received: true }, workflowData: [[item]] };
	}
	if (continuesOnError(node)) {
		const item: INodeExecutionData = { json: errorItem, pairedItem: { item: 0 } };
		return { webhookResponse: { received: true }, workflowData: [[item]] };
	}
	// Not part of IWebhookFunctions: the resume entry of the execution this webhook resumes.
	const resumeEntry = (this as unknown as { executeData?: IExecuteData }).executeData;
	if (!resumeEntry || typeof resumeEntry !== 'object') {
		return { webhookResponse: { received: true }, workflowData: [[{ json: errorItem }]] };
	}
	if (hasContextCustomData(this)) {
		resumeEntry.metadata = {
			...resumeEntry.metadata,
			resumeError: new NodeOperationError(node, message, { description }),
		};
		return { webhookResponse: { received: true }, workflowData: [[{ json: errorItem }]] };
	}
	// n8n 1.x has no resumeError: it resumes a waiting node by running it disabled, which only
	// passes the webhook's items on. Enabled, the node runs again on this one item, and execute()
	// throws the failure it carries (throwResumedFailure): n8n fails the node as for any error.
	resumeEntry.node.disabled = false;
	const failure: ResumedFailure = { node: node.id, description };
	return {
		webhookResponse: { received: true },
		workflowData: [[{ json: { ...errorItem, [RESUMED_FAILURE]: failure } }]],
	};
}

/** Marks the one item that n8n 1.x gives back to a waiting node whose job failed. */
const RESUMED_FAILURE = '__resumed_failure';

interface ResumedFailure {
	/** This node's ID: another node that receives the item does not throw. */
	node: string;
	description: string;
}

/**
 * On n8n 1.x a waiting node whose job failed runs again, on the one item its webhook marked: the
 * failure is thrown here, before anything is prepared or sent.
 */
export function throwResumedFailure(this: IExecuteFunctions): void {
	const items = this.getInputData();
	if (items.length !== 1) return;
	const { json } = items[0];
	const failure = json[RESUMED_FAILURE] as ResumedFailure | undefined;
	if (failure?.node !== this.getNode().id || typeof json.error !== 'string') return;
	throw new NodeOperationError(this.getNode(), json.error, {
		description: failure.description,
		itemIndex: 0,
	});
}
