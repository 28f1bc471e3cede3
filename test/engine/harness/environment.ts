import type { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INode,
	INodeExecutionData,
	INodeTypes,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentialsHelper';
import {
	createNodeTypes,
	INPUT_NODE_TYPE,
	inputNodeType,
	latestVersion,
	type NodeTypeMap,
} from './nodeTypes';

/** A node as tests write it: everything but name and type is optional. */
export type NodeSpec = Pick<INode, 'name' | 'type'> &
	Partial<Omit<INode, 'credentials'>> & {
		/** Credential type names (ids are filled in), or n8n's own shape. */
		credentials?: string[] | INode['credentials'];
	};

export interface RunWorkflowOptions {
	nodes: NodeSpec[];
	nodeTypes: NodeTypeMap;
	credentialTypes?: ICredentialType[];
	/** Credential data by credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** What a trigger handed n8n, one array per output: the start nodes' data instead of one item. */
	startData?: INodeExecutionData[][];
	/** When given, an `Input` node emitting these items feeds every node without a parent. */
	inputItems?: INodeExecutionData[];
	/** `manual` unless given, as when a workflow is run from the editor. */
	mode?: WorkflowExecuteMode;
	executionId?: string;
	/** Origin of the pretend n8n instance, e.g. `http://127.0.0.1:5678`. */
	baseUrl?: string;
}

let executionCounter = 0;

export interface Environment {
	opts: RunWorkflowOptions;
	mode: WorkflowExecuteMode;
	executionId: string;
	nodeTypes: INodeTypes;
	credentialsHelper: HarnessCredentialsHelper;
	urls: ReturnType<typeof baseUrls>;
}

export function createEnvironment(opts: RunWorkflowOptions): Environment {
	const types: NodeTypeMap = { ...opts.nodeTypes };
	if (opts.inputItems) types[INPUT_NODE_TYPE] = inputNodeType(opts.inputItems);
	return {
		opts,
		mode: opts.mode ?? 'manual',
		executionId: opts.executionId ?? `harness-${++executionCounter}`,
		nodeTypes: createNodeTypes(types),
		credentialsHelper: new HarnessCredentialsHelper(opts.credentialTypes ?? [], {
			...opts.credentials,
		}),
		urls: baseUrls(opts.baseUrl ?? 'http://127.0.0.1:5678'),
	};
}

export function createWorkflow(env: Environment, workflowData: IWorkflowBase): Workflow {
	return new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes: env.nodeTypes,
		settings: workflowData.settings,
		staticData: workflowData.staticData,
	});
}

export function toNode(spec: NodeSpec, env: Environment): INode {
	const type = env.nodeTypes.getByName(spec.type);
	if (!type) throw new Error(`Unknown node type "${spec.type}"`);
	const typeVersion = spec.typeVersion ?? latestVersion(type);
	const description = env.nodeTypes.getByNameAndVersion(spec.type, typeVersion).description;

	let credentials: INode['credentials'];
	if (Array.isArray(spec.credentials)) {
		credentials = Object.fromEntries(spec.credentials.map((name) => [name, { id: name, name }]));
	} else if (spec.credentials) {
		credentials = spec.credentials;
	} else {
		const given = Object.keys(env.opts.credentials ?? {});
		const wanted = (description.credentials ?? [])
			.map((c) => c.name)
			.filter((name) => given.includes(name));
		if (wanted.length) credentials = Object.fromEntries(wanted.map((n) => [n, { id: n, name: n }]));
	}

	return {
		id: spec.id ?? `${spec.name}-id`,
		position: [0, 0],
		parameters: {},
		...spec,
		typeVersion,
		credentials,
	} as INode;
}

function baseUrls(origin: string) {
	const base = origin.replace(/\/+$/, '');
	return {
		instanceBaseUrl: base,
		restApiUrl: `${base}/rest`,
		webhookBaseUrl: `${base}/webhook`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		formBaseUrl: `${base}/form`,
		formTestBaseUrl: `${base}/form-test`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
	};
}

const notAvailable = (what: string) => async () => {
	throw new Error(`${what} is not available in the engine harness`);
};

export function createAdditionalData(
	env: Environment,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		...env.urls,
		hooks,
		executionId: env.executionId,
		credentialsHelper: env.credentialsHelper,
		currentNodeExecutionIndex: 0,
		variables: {},
		executeWorkflow: notAvailable('executeWorkflow'),
		startRunnerTask: notAvailable('startRunnerTask'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}
