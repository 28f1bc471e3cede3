/**
 * A failed call of the node as an AI agent's tool, told to the model in words.
 *
 * Who calls the tool decides what reaches the model of a thrown error (read in n8n 2.41):
 * - AI Agent 1.x and 2.x run tools in LangChain's AgentExecutor through n8n-core's
 *   `makeHandleToolInvocation`: the rethrown error becomes an empty observation (`""`), so the
 *   model learns nothing. Only a returned item reaches it (its JSON, stringified).
 * - AI Agent 3.x runs the tool as a node of the execution: the model gets `{ error: message }`,
 *   the message alone (n8n 2.x); n8n 1.x fails the execution instead.
 * - The MCP Server Trigger answers a thrown error as `isError` with its name and message, and a
 *   returned item as a success.
 * So the words go into the message in every case, and are returned instead of thrown where a throw
 * would lose them. A node in a workflow (not a tool) keeps its errors as they are.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { engineToolThrowFailsExecution, toolCaller, type ToolCaller } from '../host/internals';
import { mayHaveBeenAccepted } from './transport';

function adviceFor(error: Error): string {
	if (!(error instanceof NodeApiError)) {
		return 'Correct what it names before calling the tool again.';
	}
	if (mayHaveBeenAccepted(error)) {
		return 'The service may have accepted it: do not call the tool again for the same thing; tell the user.';
	}
	const code = Number(error.httpCode);
	if (code === 401 || code === 403) {
		return 'The service refused the credentials: tell the user; calling again will not help.';
	}
	if (code === 404) {
		return 'Nothing has that id: check it (a list operation can find it) before calling again.';
	}
	if (code === 429) return 'The service is limiting requests: wait before calling again.';
	if (code >= 500 || !error.httpCode) {
		return 'The service failed or could not be reached: try again later.';
	}
	return 'The service refused these arguments: correct them before calling again; the same call will be refused again.';
}

/** The error's message, what failed, and what the model may do. */
export function toolRefusalWords(error: Error): string {
	const description =
		(error instanceof NodeApiError || error instanceof NodeOperationError) && error.description
			? error.description
			: undefined;
	const sentence = (text: string) => text.replace(/[.\s]+$/, '') + '.';
	return [error.message, description, adviceFor(error)]
		.filter((part): part is string => !!part)
		.map(sentence)
		.join(' ');
}

/**
 * Whether a thrown error would not reach the model: an AgentExecutor drops it, and n8n 1.x's
 * engine fails the whole execution when a tool it runs as a node throws.
 */
function throwLosesWords(context: IExecuteFunctions, caller: ToolCaller): boolean {
	if (caller === 'agentExecutor') return true;
	return caller === 'engine' && engineToolThrowFailsExecution(context);
}

/**
 * A failed run as the tool's caller can read it: returned as an item where a throw would lose it,
 * thrown with the words as its message to the others (n8n then marks the tool's run failed). In a
 * workflow, the error unchanged.
 */
export function answerFailure(this: IExecuteFunctions, error: unknown): INodeExecutionData[][] {
	const caller = toolCaller(this);
	if (caller === 'workflow' || !(error instanceof Error)) throw error;
	const words = toolRefusalWords(error);
	if (throwLosesWords(this, caller)) {
		return [[{ json: { error: words }, pairedItem: { item: 0 } }]];
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.message = words;
		// Its words are in the message now: n8n-core appends a description it does not find there.
		error.description = null;
		throw error;
	}
	throw new NodeOperationError(this.getNode(), words);
}
