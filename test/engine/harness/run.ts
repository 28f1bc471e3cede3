import {
	ExecutionLifecycleHooks,
	getAdditionalKeys,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ExecutionBaseError,
	ExecutionStatus,
	IConnections,
	IDataObject,
	INodeExecutionData,
	IRun,
	IRunData,
	IRunExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWorkflowBase,
} from 'n8n-workflow';
import { createRunExecutionData, deepCopy } from 'n8n-workflow';

import {
	createAdditionalData,
	createEnvironment,
	createWorkflow,
	type Environment,
	type RunWorkflowOptions,
	toNode,
} from './environment';
import { INPUT_NODE, INPUT_NODE_TYPE } from './nodeTypes';
import { attachRequest, type ResumeRequest } from './webhookRequest';

export interface HarnessRun {
	status: ExecutionStatus;
	waitTill?: Date | null;
	error?: ExecutionBaseError;
	runData: IRunData;
	run: IRun;
	executionId: string;
	/** `$execution.resumeUrl` as nodes saw it. */
	resumeUrl: string;
	/** Main outputs of a node's last run (or of `runIndex`). */
	output(nodeName: string, runIndex?: number): INodeExecutionData[][];
	json(nodeName: string, outputIndex?: number, runIndex?: number): IDataObject[];
	/** The error a node's last run recorded, if any. */
	nodeError(nodeName: string): ExecutionBaseError | undefined;
	/** What the node's `webhook()` answered, on runs produced by `resume`. */
	webhookResponse?: unknown;
	/** As a call to the resume URL does: the waiting node's webhook output becomes its output. */
	resume(request?: ResumeRequest): Promise<HarnessRun>;
	/** As the wait tracker does when the time limit passes: the waiting node's input passes through. */
	expire(): Promise<HarnessRun>;
}

function chain(names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

export async function runWorkflow(opts: RunWorkflowOptions): Promise<HarnessRun> {
	const env = createEnvironment(opts);
	const connections = chain(opts.nodes.map((n) => n.name));
	const nodes = opts.nodes.map((spec) => toNode(spec, env));

	const roots = nodes.filter(
		(node) =>
			!Object.values(connections).some((c) => c.main?.flat().some((d) => d?.node === node.name)),
	);
	let startNodes = roots;
	if (opts.inputItems) {
		if (nodes.some((n) => n.name === INPUT_NODE)) {
			throw new Error(`A node may not be named "${INPUT_NODE}" when inputItems are given`);
		}
		const input = toNode({ name: INPUT_NODE, type: INPUT_NODE_TYPE }, env);
		connections[INPUT_NODE] = {
			main: [roots.map((r) => ({ node: r.name, type: 'main' as const, index: 0 }))],
		};
		nodes.unshift(input);
		startNodes = [input];
	}
	if (startNodes.length === 0) throw new Error('The workflow has no node without a parent');

	const workflowData: IWorkflowBase = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: startNodes.map((node) => ({
				node,
				data: { main: opts.startData ?? [[{ json: {} }]] },
				source: null,
			})),
		},
	});
	return await execute(env, workflowData, runExecutionData);
}

async function execute(
	env: Environment,
	workflowData: IWorkflowBase,
	runExecutionData: IRunExecutionData,
	webhookResponse?: unknown,
): Promise<HarnessRun> {
	// Kept before the run: the engine mutates nodes and run data, and a resume needs them as stored.
	const storedWorkflow = deepCopy(workflowData);
	const workflow = createWorkflow(env, workflowData);
	const hooks = new ExecutionLifecycleHooks(env.mode, env.executionId, workflowData);
	let fromHook: IRun | undefined;
	hooks.addHandler('workflowExecuteAfter', (run) => {
		fromHook = run;
	});
	const additionalData = createAdditionalData(env, hooks);
	const run = await new WorkflowExecute(
		additionalData,
		env.mode,
		runExecutionData,
	).processRunExecutionData(workflow);
	if (fromHook !== run) throw new Error('workflowExecuteAfter did not hand back the run');
	return toHarnessRun(env, storedWorkflow, run, webhookResponse);
}

function toHarnessRun(
	env: Environment,
	workflowData: IWorkflowBase,
	run: IRun,
	webhookResponse: unknown,
): HarnessRun {
	const { runData } = run.data.resultData;
	const stored = run.status === 'waiting' ? deepCopy(run.data) : undefined;
	const task = (nodeName: string, runIndex?: number) => {
		const runs = runData[nodeName];
		if (!runs?.length) throw new Error(`Node "${nodeName}" did not run`);
		return runs[runIndex ?? runs.length - 1];
	};
	const waitingData = () => {
		if (!stored) throw new Error(`The execution is ${run.status}, not waiting`);
		return deepCopy(stored);
	};
	const result: HarnessRun = {
		status: run.status,
		waitTill: run.waitTill,
		error: run.data.resultData.error,
		runData,
		run,
		executionId: env.executionId,
		resumeUrl: getAdditionalKeys(createAdditionalData(env), env.mode, run.data).$execution!
			.resumeUrl as string,
		webhookResponse,
		output: (nodeName, runIndex) =>
			(task(nodeName, runIndex).data?.main ?? []).map((items) => items ?? []),
		json: (nodeName, outputIndex = 0, runIndex) =>
			(result.output(nodeName, runIndex)[outputIndex] ?? []).map((item) => item.json),
		nodeError: (nodeName) => task(nodeName).error,
		resume: async (request = {}) =>
			await resumeFromWebhook(env, deepCopy(workflowData), waitingData(), request),
		expire: async () => {
			const data = waitingData();
			data.waitTill = run.waitTill ?? new Date();
			return await execute(env, deepCopy(workflowData), data);
		},
	};
	return result;
}

/** The waiting node's webhook answered without resuming: the execution is still waiting. */
export class ResumeRefusedError extends Error {
	constructor(
		readonly status: number | undefined,
		readonly body: unknown,
	) {
		super(`The webhook refused to resume the execution (HTTP ${status ?? '?'})`);
	}
}

async function resumeFromWebhook(
	env: Environment,
	workflowData: IWorkflowBase,
	data: IRunExecutionData,
	request: ResumeRequest,
): Promise<HarnessRun> {
	const stackEntry = data.executionData?.nodeExecutionStack[0];
	if (!stackEntry) throw new Error('The waiting execution has nothing on its stack');
	const workflow = createWorkflow(env, deepCopy(workflowData));
	const node = workflow.getNode(stackEntry.node.name)!;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	if (!nodeType.webhook) throw new Error(`Node "${node.name}" has no webhook() to resume it`);

	const method = request.method ?? 'POST';
	const path = request.path ?? '';
	const additionalData = createAdditionalData(env);
	const additionalKeys = getAdditionalKeys(additionalData, env.mode, data);
	const description = (nodeType.description.webhooks ?? []).find((webhook) => {
		if (webhook.restartWebhook !== true) return false;
		const resolve = (value: string, fallback: string) =>
			workflow.expression.getSimpleParameterValue(
				node,
				value,
				env.mode,
				additionalKeys,
				undefined,
				fallback,
			);
		return resolve(webhook.httpMethod, 'GET') === method && resolve(webhook.path, '') === path;
	});
	if (!description) {
		throw new Error(`Node "${node.name}" has no restart webhook for ${method} "${path}"`);
	}

	const answered = attachRequest(additionalData, request);
	const webhookData: IWebhookData = {
		httpMethod: method,
		node: node.name,
		path,
		webhookDescription: description as IWebhookDescription,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new WebhookContext(
		workflow,
		node,
		additionalData,
		env.mode,
		webhookData,
		[],
		data,
	);
	const response = await nodeType.webhook.call(context);
	if (response.workflowData === undefined) {
		// n8n leaves the execution waiting when the webhook starts nothing (a refused callback).
		throw new ResumeRefusedError(answered.status, answered.body);
	}

	// What n8n's waiting-webhook handler does before it runs the execution again.
	stackEntry.node.disabled = true;
	stackEntry.data.main = response.workflowData ?? [];
	stackEntry.metadata = { ...stackEntry.metadata, forwardAllOutputs: true };
	data.waitTill = undefined;
	return await execute(env, workflowData, data, response.webhookResponse);
}
