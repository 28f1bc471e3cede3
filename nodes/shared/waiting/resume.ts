import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorOutputJson, usesErrorOutput } from '../errorOutput';
import { failResumedNode, readExecutionCustomData } from '../host/internals';
import {
	normalizePayload,
	payloadId,
	payloadOutcome,
	recognizePayload,
	recordListsOf,
	type Outcome,
} from '../incoming/callbackPayload';
import { withoutKeys } from '../dataObject';
import { ENDPOINTS } from '../endpoints';
import type { OperationsOf } from '../operationTable';
import { redactEchoedSecrets, RESUME_TOKEN_PARAMETER } from '../redact';
import { awaitedJobKey, decodeAwaitedJob, tokenMatches } from './awaitedJob';
import {
	completedResults,
	oneResumedItem,
	WAIT_STATUS_FIELD,
	type ParameterReader,
	type Waiting,
} from './declaration';

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

/**
 * The `webhook()` of every node with a waiting operation: the resume URL of an execution that one
 * of `operations` put to wait lands here, and the operation's declaration says what the delivery
 * becomes.
 */
export async function resumeWaitingOperation(
	this: IWebhookFunctions,
	operations: OperationsOf<{ description: INodeProperties[]; waiting?: Waiting }>,
): Promise<IWebhookResponseData> {
	const resource = this.getNodeParameter('resource', '') as string;
	const operationName = this.getNodeParameter('operation', '') as string;
	const waiting = operations[resource]?.[operationName]?.waiting;
	const parameter: ParameterReader = (name, fallback) => this.getNodeParameter(name, fallback);
	const toItems = waiting?.resumedItems ?? ((payload: IDataObject) => oneResumedItem(payload));
	return resumeWithResults.call(this, (payload) => toItems(payload, this.getNode(), parameter));
}

/**
 * Resumes the waiting execution with the delivered results, but only for the job or request it
 * submitted: the resume URL is secret, yet a callback for another job must not complete this one.
 * `toResults` turns the delivery into the node's items.
 */
function resumeWithResults(
	this: IWebhookFunctions,
	toResults: (payload: IDataObject) => IDataObject[],
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
	return { ...withoutKeys(payload, ...recordListsOf(ENDPOINTS)), result_count: 0 };
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
 * so the error goes where each n8n version puts errors of resumed nodes (host's `failResumedNode`).
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
	if (usesErrorOutput(node)) {
		// n8n rebuilds a resumed node's error output from the items of its first output whose JSON
		// holds only `error`, `message` and `details`, merged into the input item they came from
		// (handleNodeErrorOutput): an item put straight on the error output would be dropped.
		const details = withoutKeys(errorItem, 'error');
		const json = errorOutputJson(this, message, description, details);
		const item: INodeExecutionData = { json, pairedItem: { item: 0 } };
		return { webhookResponse: { received: true }, workflowData: [[item]] };
	}
	if (continuesOnError(node)) {
		const item: INodeExecutionData = { json: errorItem, pairedItem: { item: 0 } };
		return { webhookResponse: { received: true }, workflowData: [[item]] };
	}
	const error = new NodeOperationError(node, message, { description });
	const json = failResumedNode(this, error, errorItem);
	return { webhookResponse: { received: true }, workflowData: [[{ json }]] };
}
