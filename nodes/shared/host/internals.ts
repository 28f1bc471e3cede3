import type {
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INode,
	ITriggerFunctions,
	IWebhookFunctions,
	NodeError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The one door to n8n's internals: every place this package reaches past n8n's node interfaces, or
 * tells one n8n version from another, is here, each with what it reaches and the n8n versions it was
 * read in (2.41.1, compiled n8n-core and n8n; 1.123.81, exercised by the compatibility e2e). When a
 * new n8n release breaks a node, look here first. test/unit/package-wide/layering.test.ts keeps the rest of the
 * package out of these internals.
 */

// Execution custom data

/**
 * n8n's execution custom data, as node code can reach it. Not the same door on every n8n:
 * - n8n 2.x: a `customData` getter on every node context (NodeExecutionContext in n8n-core, read
 *   in 2.41.1), which throws where the context has no execution behind it.
 * - n8n 1.x: no such getter; the store is `$execution.customData` through the data proxy in
 *   execute(), and in a webhook context only through `additionalKeys`, the keys its expressions get
 *   as `$execution` (tested on 1.123.81).
 */

/** The part of n8n's execution custom data that this package keeps values in. */
export interface ExecutionCustomData {
	set(key: string, value: string): void;
	get(key: string): string | undefined;
}

type ExecutionKeys = { $execution?: { customData?: unknown } };

/** Not part of n8n's interfaces: what n8n 1.x's node contexts give expressions as `$execution`. */
type WithAdditionalKeys = { additionalKeys?: ExecutionKeys };

function isStore(store: unknown): store is ExecutionCustomData {
	const candidate = store as Partial<ExecutionCustomData> | undefined;
	return typeof candidate?.set === 'function' && typeof candidate.get === 'function';
}

/** The context's own store (n8n 2.x); undefined on 1.x and where there is no execution. */
function contextCustomData(context: object): ExecutionCustomData | undefined {
	try {
		const store = (context as { customData?: unknown }).customData;
		return isStore(store) ? store : undefined;
	} catch {
		// n8n 2.x throws when the context has no execution behind it.
		return undefined;
	}
}

/**
 * The execution's custom data: the context's own store on n8n 2.x, `$execution.customData` through
 * the data proxy on n8n 1.x; undefined where neither exists (no execution behind the context).
 */
export function executionCustomData(
	context: IExecuteFunctions | IWebhookFunctions,
	itemIndex = 0,
): ExecutionCustomData | undefined {
	const own = contextCustomData(context);
	if (own) return own;
	const { getWorkflowDataProxy } = context as {
		getWorkflowDataProxy?: (itemIndex: number) => ExecutionKeys;
	};
	if (typeof getWorkflowDataProxy !== 'function') return undefined;
	try {
		const store = getWorkflowDataProxy.call(context, itemIndex).$execution?.customData;
		return isStore(store) ? store : undefined;
	} catch {
		return undefined;
	}
}

/**
 * One custom data value, in any context that can read it. n8n 1.x's webhook context has no data
 * proxy, and an expression calling `$execution.customData.get()` there gives undefined (its
 * expression sandbox does not call into that object); the context's `additionalKeys` hold the
 * same store.
 */
export function readExecutionCustomData(
	context: IExecuteFunctions | IWebhookFunctions,
	key: string,
): string | undefined {
	const store = executionCustomData(context);
	if (store) return store.get(key);
	try {
		const fallback = (context as WithAdditionalKeys).additionalKeys?.$execution?.customData;
		return isStore(fallback) ? fallback.get(key) : undefined;
	} catch {
		return undefined;
	}
}

// Which n8n: the one version probe

/**
 * The one n8n version probe: whether this n8n is 2.x, told by what its contexts offer rather than
 * by a version number a node cannot read. n8n 2.0 gave every node context its own custom data
 * (read in 2.41.1); 1.x has none there (1.123.81). What differs with it, where this package
 * relies on the difference:
 * - the error output keeps an item's `details` (errorOutputTakesDetails);
 * - a resumed node fails through its resume entry's `resumeError` (failResumedNode).
 * A context with no execution behind it reads as 1.x: it has neither an error output nor a resume.
 */
export function isN8n2(context: object): boolean {
	return contextCustomData(context) !== undefined;
}

/**
 * Whether n8n moves a failed item whose JSON holds `details` beside `error` and `message` to the
 * error output (`handleNodeErrorOutput`, n8n-core): n8n 2.x does; n8n 1.x moves only an item
 * holding `error` and a truthy `message`, nothing else.
 */
export function errorOutputTakesDetails(context: object): boolean {
	return isN8n2(context);
}

// Execute data, and how n8n runs this node. n8n's execute data is the stack entry one run of a
// node executes under (`getExecuteData()` in execute(), the protected `executeData` of n8n-core's
// node contexts; read in 2.41.1, the same on 1.123.81). retryMemory.ts keys Retry On Fail's memory
// by its identity.

/**
 * The node whose execute data this run uses: this node's own, except for a tool supplied to a
 * caller (an AI Agent 1.x or 2.x, the MCP Server Trigger in the main process), which runs in its
 * caller's. Undefined where n8n gives none (a queue-mode worker serving the MCP Server Trigger).
 */
function executeDataNode(context: IExecuteFunctions): INode | undefined {
	return context.getExecuteData?.()?.node;
}

const MCP_SERVER_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * How the node is running: in a workflow; as a tool the engine runs as a node (AI Agent 3.x), which
 * can wait; or as a tool supplied to its caller, to an AgentExecutor (AI Agent 1.x, 2.x) or to
 * another caller that reads thrown errors (the MCP Server Trigger, in the main process or, in queue
 * mode, on a worker). Read in 2.41.1 (`isToolExecution`, the tool variant's type) and tested on
 * 1.123.81 (no `isToolExecution`: the caller's execute data tells).
 */
export type ToolCaller = 'workflow' | 'engine' | 'agentExecutor' | 'supplied';

export function toolCaller(context: IExecuteFunctions): ToolCaller {
	const node = context.getNode();
	// n8n serves a usableAsTool node's tool variant as "<type>Tool".
	if (!node.type.endsWith('Tool')) return 'workflow';
	// A supplied tool runs in its caller's execute data, except on a queue-mode worker serving the
	// MCP Server Trigger; n8n 2.x says it outright, n8n 1.x has no isToolExecution().
	const caller = executeDataNode(context);
	const runsInCaller = caller !== undefined && caller.name !== node.name;
	const supplied =
		typeof context.isToolExecution === 'function' ? context.isToolExecution() : runsInCaller;
	if (!supplied) return 'engine';
	if (!runsInCaller || caller.type === MCP_SERVER_TRIGGER) return 'supplied';
	return 'agentExecutor';
}

/**
 * Whether a tool the engine runs as a node (AI Agent 3.x) fails the whole execution when it
 * throws: n8n 1.x, which has no isToolExecution(), does (measured with AI Agent 3 on n8n 1.123:
 * "Error in workflow", the model never called again); n8n 2.x gives the model the message.
 */
export function engineToolThrowFailsExecution(context: IExecuteFunctions): boolean {
	return typeof context.isToolExecution !== 'function';
}

/**
 * How n8n learns that a node resumed by its webhook failed, through the resume entry: the execute
 * data of the execution the webhook resumes, which IWebhookFunctions does not expose. Gives the
 * item the webhook resumes with.
 * - n8n 2.x reads the entry's `metadata.resumeError` and raises it as the node's error (or an
 *   error item with Continue On Fail; `WorkflowExecute`, read in 2.41.1).
 * - n8n 1.x has no resumeError and resumes a waiting node by running it disabled, which only
 *   passes the webhook's items on; enabled, the node runs again on its item, which carries the
 *   failure for execute() to throw (`resumedFailure`; tested on 1.123.81).
 * - No resume entry (not a resumed execution): the item as it is.
 */
export function failResumedNode(
	context: IWebhookFunctions,
	error: NodeError,
	json: IDataObject,
): IDataObject {
	const resumeEntry = (context as unknown as { executeData?: IExecuteData }).executeData;
	if (!resumeEntry || typeof resumeEntry !== 'object') return json;
	if (isN8n2(context)) {
		resumeEntry.metadata = { ...resumeEntry.metadata, resumeError: error };
		return json;
	}
	resumeEntry.node.disabled = false;
	const failure: ResumedFailure = {
		node: context.getNode().id,
		message: error.message,
		description: error.description ?? '',
	};
	return { ...json, [RESUMED_FAILURE]: failure };
}

/** The key of the failure an item carries into the node that runs again on n8n 1.x. */
const RESUMED_FAILURE = '__resumed_failure';

interface ResumedFailure {
	/** The waiting node's ID: another node that receives the item does not throw. */
	node: string;
	message: string;
	description: string;
}

/**
 * The failure to throw when this run is n8n 1.x running a waiting node again on the one item its
 * resume webhook marked (`failResumedNode`), before anything is prepared; undefined otherwise.
 */
export function resumedFailure(
	context: IExecuteFunctions,
	itemIndex: number,
): NodeOperationError | undefined {
	const items = context.getInputData();
	if (items.length !== 1) return undefined;
	const failure = items[itemIndex].json[RESUMED_FAILURE] as ResumedFailure | undefined;
	if (failure?.node !== context.getNode().id) return undefined;
	return new NodeOperationError(context.getNode(), failure.message, {
		description: failure.description,
		itemIndex,
	});
}

// Expression data

/**
 * What this package reads about the execution through n8n's expression data rather than a method
 * of the node context (read in 2.41.1; the same on 1.123.81).
 */

/**
 * This execution's resume URL, `$execution.resumeUrl`. Community nodes get this, not
 * `getSignedResumeUrl()`, which n8n accepts only for its own send-and-wait nodes; on 2.x it carries
 * n8n's `signature`, on 1.x it is `/webhook-waiting/<execution id>` alone.
 */
export function executionResumeUrl(context: IExecuteFunctions, itemIndex: number): string {
	return String(context.evaluateExpression('{{ $execution.resumeUrl }}', itemIndex));
}

/** How many times this node has run before in this execution (`$runIndex`): 0 the first time. */
export function nodeRunIndex(context: IExecuteFunctions, itemIndex: number): number {
	return Number(context.getWorkflowDataProxy(itemIndex).$runIndex);
}

// The webhook's request

/** A webhook request whose body is still on the wire, to be read as a stream of chunks. */
export interface UnreadRequest extends AsyncIterable<Buffer> {
	headers: Record<string, string | string[] | undefined>;
	destroy?: () => void;
}

/** Not part of n8n's interfaces: the Node.js request behind `getRequestObject()`, as n8n left it. */
interface RequestAsReceived extends UnreadRequest {
	readable?: boolean;
	readableEnded?: boolean;
	rawBody?: unknown;
	body?: unknown;
}

/**
 * The request, when n8n left its body unread; undefined when n8n read it (`getBodyData()` holds
 * it then). n8n parses a webhook's body before any node code runs, except for a start node of type
 * version 1 whose `options.binaryData` is set (`parseRequestBody` in n8n's webhook-helpers, read in
 * 2.41.1; the same switch on 1.123.81): the stream is then untouched, with neither `body` nor
 * `rawBody` set.
 */
export function unreadRequest(context: IWebhookFunctions): UnreadRequest | undefined {
	const request = context.getRequestObject() as unknown as RequestAsReceived;
	const unread =
		request.body === undefined &&
		request.rawBody === undefined &&
		request.readable === true &&
		request.readableEnded !== true;
	return unread ? request : undefined;
}

// The expression isolate

type IsolateHolder = { withIsolate?: <T>(work: () => Promise<T>) => Promise<T> };

/**
 * Runs `work` holding the workflow's expression isolate, which a request with a credential needs
 * (its authentication is an expression). n8n holds it while a trigger is activated and closed, not
 * while a cron the trigger registered ticks: n8n-core's TriggerContext keeps the Workflow as
 * `workflow`, whose `expression.withIsolate` acquires one unless this caller holds it already
 * (read in 2.41.1's n8n-workflow and n8n-core; 1.123.81 has the same method, a no-op without its
 * VM evaluator). Without that door, `work` runs as it is.
 */
export async function withExpressionIsolate<T>(
	context: ITriggerFunctions,
	work: () => Promise<T>,
): Promise<T> {
	const expression = (context as { workflow?: { expression?: IsolateHolder } }).workflow
		?.expression;
	if (typeof expression?.withIsolate !== 'function') return await work();
	return await expression.withIsolate(work);
}
