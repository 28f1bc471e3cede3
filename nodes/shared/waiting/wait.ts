import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { executionResumeUrl, nodeRunIndex, resumedFailure, toolCaller } from '../host/internals';
import { isObject } from '../dataObject';
import type { PreparedItem } from '../outgoing/router';
import { FieldReader } from '../outgoing/validation';
import {
	awaitedJobKey,
	decodeAwaitedJob,
	digestToken,
	encodeAwaitedJob,
	requireExecutionCustomData,
	resumeCallbackAddress,
} from './awaitedJob';
import { DEFAULT_TIME_LIMIT_MINUTES, MINUTES_PER_UNIT } from './waitFields';
import {
	completedResults,
	oneResumedItem,
	type ParameterReader,
	type Waiting,
} from './declaration';

/**
 * The execute side of Wait for Completion, applied by the operations that declare it: the router
 * sends what the wrapped `prepare` gives and knows nothing of waiting.
 */

/** An operation's own `prepare`: given `resumeUrl` when the item is to wait, it goes where the callback goes. */
export type WaitablePrepare = (
	this: IExecuteFunctions,
	itemIndex: number,
	resumeUrl?: string,
) => PreparedItem;

/**
 * The operation's `prepare` with Wait for Completion applied: an item that is to wait claims this
 * execution's resume URL before anything is sent, and its output is the delivered results.
 */
export function waitsForCompletion(
	waiting: Waiting,
	prepare: WaitablePrepare,
): (this: IExecuteFunctions, itemIndex: number) => PreparedItem {
	return function (this: IExecuteFunctions, itemIndex: number): PreparedItem {
		const failure = resumedFailure(this, itemIndex);
		if (failure) throw failure;
		if (!this.getNodeParameter('waitForCompletion', itemIndex, false)) {
			return prepare.call(this, itemIndex);
		}
		refuseWaitingForSuppliedTool.call(this, itemIndex);
		const timeLimit = readTimeLimitMinutes.call(this, itemIndex, waiting);
		const resumeUrl = claimResumeUrl.call(this, itemIndex);
		const { request } = prepare.call(this, itemIndex, resumeUrl);
		return {
			request,
			callbackSource: { resumeUrl },
			toOutput: async (answer) =>
				await awaitCompletion.call(this, itemIndex, waiting, timeLimit, answer),
		};
	};
}

/**
 * Wait for Completion puts the execution to wait, which only a node the engine runs can do: a tool
 * supplied to an AgentExecutor or the MCP Server Trigger would answer at once while its execution
 * went to wait, and the callback would resume a finished conversation. Refused before sending.
 */
export function refuseWaitingForSuppliedTool(this: IExecuteFunctions, itemIndex: number): void {
	const caller = toolCaller(this);
	if (caller === 'workflow' || caller === 'engine') return;
	const calledAs =
		caller === 'supplied'
			? 'called through the MCP Server Trigger'
			: 'a tool of AI Agent 1.x or 2.x';
	throw new NodeOperationError(this.getNode(), `Wait for Completion cannot wait as ${calledAs}`, {
		itemIndex,
		description:
			'Nothing was sent. The tool would answer before the results came back. Turn Wait for Completion off (the tool then returns the job ID), or use AI Agent 3 or newer, which runs tools as nodes that can wait.',
	});
}

/** From this many waits of one node in one execution on, the run says there is a faster way. */
export const WAITS_IN_TURN_HINT_FROM = 5;
export const MANY_PROFILES_GUIDE =
	'https://github.com/n8n-nodes-review-scraping/n8n-nodes-review-scraping/blob/main/docs/many-profiles.md';

/**
 * In a loop the node waits once per item, one job after another: measured, 20 profiles take 20
 * job durations this way and about one through Add Many and the Scraping Callback Trigger.
 */
function hintWaitsInTurn(this: IExecuteFunctions, itemIndex: number): void {
	const waits = nodeRunIndex(this, itemIndex) + 1;
	if (waits < WAITS_IN_TURN_HINT_FROM) return;
	// Older n8n versions have no execution hints for community nodes.
	this.addExecutionHints?.({
		message: `This node has waited ${waits} times in this execution, one job after another. For many profiles, Add Many with a Scraping Callback Trigger gets every result in about one job's time: ${MANY_PROFILES_GUIDE}`,
		type: 'info',
		location: 'outputPane',
	});
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
					"An execution resumes once per wait, for one item. Put this node inside Loop Over Items with a batch size of 1: each item waits in turn and every result comes back in this execution, linked to its item. (Execute Workflow \"once for each item\" into a sub-workflow that waits does not help: n8n resumes the parent with the first sub-workflow's results only.) Or turn Wait for Completion off and receive the results with a Scraping Callback Trigger: for tens of profiles or more it gets every result in about one job's time, where the loop takes one job's time per profile (measured: " +
					MANY_PROFILES_GUIDE +
					').',
			},
		);
	}
	hintWaitsInTurn.call(this, itemIndex);
	const resumeUrl = executionResumeUrl(this, itemIndex);
	const { url, token } = resumeCallbackAddress(resumeUrl, this.getNode().id);
	// The submitted ID is kept in the execution's custom data, which n8n caps at 10 keys: claim the
	// slot before the job is submitted, so a full store fails here and not after the job exists.
	const key = awaitedJobKey(this.getNode().id);
	const store = requireExecutionCustomData.call(this, itemIndex);
	const claim = encodeAwaitedJob({ tokenDigest: token && digestToken(token) });
	store.set(key, claim);
	if (store.get(key) !== claim) {
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
 * the node version the declaration names, minutes before it (as workflows saved with those
 * versions keep).
 */
function readTimeLimitMinutes(
	this: IExecuteFunctions,
	itemIndex: number,
	{ timeLimitInUnitsFrom }: Waiting,
): number {
	const read = new FieldReader(this.getNode(), itemIndex);
	if (this.getNode().typeVersion < timeLimitInUnitsFrom) {
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
async function awaitCompletion(
	this: IExecuteFunctions,
	itemIndex: number,
	waiting: Waiting,
	timeLimitMinutes: number,
	answer: unknown,
): Promise<IDataObject[]> {
	const acknowledgement = isObject(answer) ? answer : {};
	if (waiting.answeredAtOnce?.(acknowledgement)) {
		const parameter: ParameterReader = (name, fallback) =>
			this.getNodeParameter(name, itemIndex, fallback);
		const toItems = waiting.resumedItems ?? ((payload: IDataObject) => oneResumedItem(payload));
		return completedResults(toItems(acknowledgement, this.getNode(), parameter));
	}
	const expectedId = acknowledgement[waiting.idField];
	if (expectedId === undefined || expectedId === null) {
		throw new NodeOperationError(this.getNode(), 'The service did not return an ID to wait for', {
			itemIndex,
		});
	}
	const key = awaitedJobKey(this.getNode().id);
	const store = requireExecutionCustomData.call(this, itemIndex);
	const { tokenDigest } = decodeAwaitedJob(store.get(key)) ?? {};
	store.set(key, encodeAwaitedJob({ id: String(expectedId), tokenDigest }));
	await this.putExecutionToWait(new Date(Date.now() + timeLimitMinutes * 60_000));
	return [acknowledgement];
}
