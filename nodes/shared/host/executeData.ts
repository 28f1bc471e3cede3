import type {
	ExecutionError,
	IExecuteData,
	IExecuteFunctions,
	INode,
	IWebhookFunctions,
} from 'n8n-workflow';

import { isN8n2 } from './version';

/**
 * n8n's execute data: the stack entry one run of a node executes under (`getExecuteData()` in
 * execute(), the protected `executeData` of n8n-core's node contexts; read in 2.41.1, the same on
 * 1.123.81).
 */

/**
 * The identity of this node run, for keying what must last across Retry On Fail's tries and no
 * longer. n8n creates one execute-data object per node run, passes the same object to every try
 * (the Retry On Fail loop in n8n-core's `WorkflowExecute.processRunExecutionData`) and drops it with the execution. Undefined where n8n
 * gives none.
 */
export function nodeRunIdentity(context: IExecuteFunctions): object | undefined {
	const run = typeof context.getExecuteData === 'function' ? context.getExecuteData() : undefined;
	return run && typeof run === 'object' ? run : undefined;
}

/**
 * The node whose execute data this run uses: this node's own, except for a tool supplied to a
 * caller (an AI Agent 1.x or 2.x, the MCP Server Trigger in the main process), which runs in its
 * caller's. Undefined where n8n gives none (a queue-mode worker serving the MCP Server Trigger).
 */
export function executeDataNode(context: IExecuteFunctions): INode | undefined {
	return context.getExecuteData?.()?.node;
}

/**
 * How n8n learns that a node resumed by its webhook failed, through the resume entry: the execute
 * data of the execution the webhook resumes, which IWebhookFunctions does not expose.
 * - `raised`: n8n 2.x reads the entry's `metadata.resumeError` and raises it as the node's error
 *   (or an error item with Continue On Fail; `WorkflowExecute`, read in 2.41.1).
 * - `runsAgain`: n8n 1.x has no resumeError and resumes a waiting node by running it disabled,
 *   which only passes the webhook's items on; enabled, the node runs again on them, and its
 *   execute() is to throw the failure they carry (tested on 1.123.81).
 * - `unavailable`: no resume entry (not a resumed execution).
 */
export function failResumedNode(
	context: IWebhookFunctions,
	error: ExecutionError,
): 'raised' | 'runsAgain' | 'unavailable' {
	const resumeEntry = (context as unknown as { executeData?: IExecuteData }).executeData;
	if (!resumeEntry || typeof resumeEntry !== 'object') return 'unavailable';
	if (isN8n2(context)) {
		resumeEntry.metadata = { ...resumeEntry.metadata, resumeError: error };
		return 'raised';
	}
	resumeEntry.node.disabled = false;
	return 'runsAgain';
}
