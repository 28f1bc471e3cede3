import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { payloadId } from './callbackPayload';

export const DEFAULT_TIME_LIMIT_MINUTES = 60;

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
			'Results come out with "wait_status": "completed". If the time limit passes first, n8n passes this node\'s input items on unchanged (without wait_status): branch on it with an If node.',
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
		description: 'How long to wait for the results before the workflow goes on without them',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
];

/** A submit operation's fields with the wait options; the node fills the callback itself when waiting. */
export function withWaitForCompletion(
	properties: INodeProperties[],
	callbackField: string,
): INodeProperties[] {
	const fields = properties.map((property) =>
		property.name === callbackField
			? {
					...property,
					displayOptions: {
						...property.displayOptions,
						hide: { ...property.displayOptions?.hide, waitForCompletion: [true] },
					},
				}
			: property,
	);
	return [...fields, ...waitForCompletionFields];
}

/** Marks results that reached this node through its callback rather than from a time-out. */
export function completedResults(results: IDataObject[]): IDataObject[] {
	return results.map((json) => ({ ...json, [WAIT_STATUS_FIELD]: 'completed' }));
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

// Execution custom data keys allow letters, digits and underscores only, up to 50 characters.
const expectedIdKey = (nodeId: string) =>
	`awaiting_${nodeId.replace(/[^A-Za-z0-9]/g, '_')}`.slice(0, 50);
const PENDING = 'pending';

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
					'An execution can wait for one callback. Send one item per execution (for example with Loop Over Items and a sub-workflow), or turn Wait for Completion off and receive the results with a Scraping Callback Trigger.',
			},
		);
	}
	// The submitted ID is kept in the execution's custom data, which n8n caps at 10 keys: claim the
	// slot before the job is submitted, so a full store fails here and not after the job exists.
	const key = expectedIdKey(this.getNode().id);
	this.customData.set(key, PENDING);
	if (this.customData.get(key) !== PENDING) {
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
	// Community nodes get $execution.resumeUrl, not getSignedResumeUrl(), which n8n accepts only for
	// its own send-and-wait nodes. The node ID goes before the query string, where the
	// restart webhook's path is matched.
	const resumeUrl = String(this.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
	const [address, query] = resumeUrl.split('?');
	return `${address.replace(/\/+$/, '')}/${this.getNode().id}${query ? `?${query}` : ''}`;
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
	this.customData.set(expectedIdKey(this.getNode().id), String(expectedId));
	await this.putExecutionToWait(new Date(Date.now() + Math.max(1, minutes) * 60_000));
}

/**
 * Resumes the waiting execution with the delivered results, but only for the job or request it
 * submitted: the resume URL is secret, yet a callback for another job must not complete this one.
 */
export function resumeWithResults(
	this: IWebhookFunctions,
	toResults: (payload: IDataObject) => IDataObject[],
): IWebhookResponseData {
	const payload = this.getBodyData();
	const expectedId = this.customData.get(expectedIdKey(this.getNode().id));
	const deliveredId = payload && typeof payload === 'object' ? payloadId(payload) : undefined;
	if (expectedId === undefined || expectedId === PENDING || deliveredId !== expectedId) {
		this.getResponseObject()
			.status(422)
			.json({ message: 'This callback does not belong to the job this execution is waiting for' });
		return { noWebhookResponse: true };
	}
	const items: INodeExecutionData[] = completedResults(toResults(payload)).map((json) => ({
		json,
	}));
	return { webhookResponse: { received: true }, workflowData: [items] };
}
