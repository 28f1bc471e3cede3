import {
	CredentialTestContext,
	ExecuteContext,
	ExecutionLifecycleHooks,
	getAdditionalKeys,
	HookContext,
	RoutingNode,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	IWebhookResponseData,
	ExecutionBaseError,
	ExecutionStatus,
	IConnections,
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IRunData,
	IRunExecutionData,
	IVersionedNodeType,
	IWebhookData,
	IWebhookDescription,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	deepCopy,
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

export type NodeTypeMap = Record<string, INodeType | IVersionedNodeType>;

/** A node as tests write it: everything but name and type is optional. */
export type NodeSpec = Pick<INode, 'name' | 'type'> &
	Partial<Omit<INode, 'credentials'>> & {
		/** Credential type names (ids are filled in), or n8n's own shape. */
		credentials?: string[] | INode['credentials'];
	};

export interface RunWorkflowOptions {
	nodes: NodeSpec[];
	/** Defaults to chaining the nodes in the order given. */
	connections?: IConnections;
	nodeTypes: NodeTypeMap;
	credentialTypes?: ICredentialType[];
	/** Credential data by credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** When given, an `Input` node emitting these items feeds every node without a parent. */
	inputItems?: INodeExecutionData[];
	/** `manual` unless given, as when a workflow is run from the editor. */
	mode?: WorkflowExecuteMode;
	executionId?: string;
	/** Origin of the pretend n8n instance, e.g. `http://127.0.0.1:5678`. */
	baseUrl?: string;
	webhookWaitingBaseUrl?: string;
}

export interface ResumeRequest {
	method?: IHttpRequestMethods;
	body?: unknown;
	headers?: Record<string, string>;
	query?: Record<string, string>;
	/** Path suffix after `<resumeUrl>/`; matches the webhook description's `path`. */
	path?: string;
}

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

export const INPUT_NODE = 'Input';
const INPUT_NODE_TYPE = 'harness.input';

let executionCounter = 0;

export function chain(names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	}
	return connections;
}

export async function runWorkflow(opts: RunWorkflowOptions): Promise<HarnessRun> {
	const env = createEnvironment(opts);
	const connections = { ...(opts.connections ?? chain(opts.nodes.map((n) => n.name))) };
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
				data: { main: [[{ json: {} }]] },
				source: null,
			})),
		},
	});
	return await execute(env, workflowData, runExecutionData);
}

interface Environment {
	opts: RunWorkflowOptions;
	mode: WorkflowExecuteMode;
	executionId: string;
	nodeTypes: INodeTypes;
	credentialsHelper: HarnessCredentialsHelper;
	urls: ReturnType<typeof baseUrls>;
}

function createEnvironment(opts: RunWorkflowOptions): Environment {
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
		urls: baseUrls(opts.baseUrl ?? 'http://127.0.0.1:5678', opts.webhookWaitingBaseUrl),
	};
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

	additionalData.httpRequest = {
		method,
		body: request.body ?? {},
		headers: Object.fromEntries(
			Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
		),
		query: request.query ?? {},
		params: {},
	} as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
	const { answered, response: httpResponse } = recordingResponse();
	additionalData.httpResponse = httpResponse;
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

function createWorkflow(env: Environment, workflowData: IWorkflowBase): Workflow {
	return new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		active: false,
		nodeTypes: env.nodeTypes,
		settings: workflowData.settings,
	});
}

function toNode(spec: NodeSpec, env: Environment): INode {
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

function latestVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

function createNodeTypes(types: NodeTypeMap): INodeTypes {
	return {
		getByName: (name) => types[name],
		getByNameAndVersion: (name, version) => {
			const type = types[name];
			if (!type) throw new Error(`Unknown node type "${name}"`);
			return NodeHelpers.getVersionedNodeType(type, version);
		},
		getKnownTypes: () => ({}),
	};
}

function inputNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Input',
			name: INPUT_NODE_TYPE,
			group: ['input'],
			version: 1,
			description: 'Emits the items a test gives',
			defaults: { name: INPUT_NODE },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			return [deepCopy(items)];
		},
	} as INodeType;
}

function baseUrls(origin: string, webhookWaitingBaseUrl?: string) {
	const base = origin.replace(/\/+$/, '');
	return {
		instanceBaseUrl: base,
		restApiUrl: `${base}/rest`,
		webhookBaseUrl: `${base}/webhook`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		webhookWaitingBaseUrl: webhookWaitingBaseUrl ?? `${base}/webhook-waiting`,
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

function createAdditionalData(
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

const MOCK_NODE: INode = {
	id: 'mock',
	name: '',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const MOCK_NODE_TYPES: INodeTypes = createNodeTypes({
	mock: { description: { properties: [] } } as unknown as INodeType,
});

/**
 * Stands in for n8n's server-side credentials helper: credentials come from memory, defaults
 * and expressions are applied as n8n applies them, and generic `authenticate` is resolved
 * through the workflow's expression evaluator.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly types = new Map<string, ICredentialType>();

	constructor(
		credentialTypes: ICredentialType[],
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
		for (const type of credentialTypes) this.types.set(type.name, type);
	}

	private getType(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown credential type "${name}": pass it in credentialTypes`);
		return type;
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.getType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node) throw new Error('Generic authentication needs a workflow and a node');
			const resolve = (value: string) => {
				if (!isExpression(value)) return value;
				const resolved = workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
				return resolved ? resolved.toString() : '';
			};
			requestOptions.headers ??= {};
			const target = requestOptions as unknown as Record<string, Record<string, string>>;
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					target[outerKey] ??= {};
					target[outerKey][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<undefined> {
		this.assertNoPreAuthentication(typeName);
		return undefined;
	}

	async runPreAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<undefined> {
		this.assertNoPreAuthentication(typeName);
		return undefined;
	}

	private assertNoPreAuthentication(typeName: string) {
		if (this.getType(typeName).preAuthentication) {
			throw new Error(`Credential type "${typeName}" uses preAuthentication: not supported here`);
		}
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Encrypted credentials are not available in the engine harness');
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.data[type];
		if (!stored) {
			throw new Error(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		const data = deepCopy(stored);
		if (raw) return data;
		return this.applyDefaultsAndExpressions(
			additionalData,
			data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	applyDefaultsAndExpressions(
		additionalData: IWorkflowExecuteAdditionalData,
		stored: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			return workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}
		const workflow = new Workflow({
			nodes: [{ ...MOCK_NODE }],
			connections: {},
			active: false,
			nodeTypes: MOCK_NODE_TYPES,
		});
		return workflow.expression.getComplexParameterValue(
			MOCK_NODE,
			withDefaults as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data[type] = data;
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new Error('OAuth credentials are not supported by the engine harness');
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getType(type);
		if (!credentialType.extends) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}

/**
 * Runs a credential type's `test.request` the way n8n's credential tester does: through a
 * temporary declarative node, so `baseURL`/`url` expressions, `authenticate` and n8n's own HTTP
 * client all take part.
 */
/**
 * As n8n does for a credential without `test`: the first node that names it with a `testedBy`
 * string runs that function of its `methods.credentialTest`, in n8n-core's credential test context.
 */
async function testCredentialByNode(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
	opts: { credentialTypes?: ICredentialType[]; baseUrl?: string; nodeTypes?: INodeType[] },
): Promise<INodeCredentialTestResult> {
	for (const nodeType of opts.nodeTypes ?? []) {
		const entry = nodeType.description.credentials?.find(
			(credential) => credential.name === credentialType.name && credential.testedBy,
		);
		if (!entry || typeof entry.testedBy !== 'string') continue;
		const testFunction = nodeType.methods?.credentialTest?.[entry.testedBy];
		if (!testFunction) continue;
		const env = createEnvironment({
			nodes: [],
			nodeTypes: {},
			credentialTypes: [credentialType, ...(opts.credentialTypes ?? [])],
			credentials: { [credentialType.name]: data },
			mode: 'internal',
			baseUrl: opts.baseUrl,
		});
		const context = new CredentialTestContext(createAdditionalData(env));
		return await testFunction.call(context, {
			id: 'temp',
			name: credentialType.name,
			type: credentialType.name,
			data: deepCopy(data),
		});
	}
	return { status: 'Error', message: 'No testing function found for this credential.' };
}

export async function testCredential(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
	opts: { credentialTypes?: ICredentialType[]; baseUrl?: string; nodeTypes?: INodeType[] } = {},
): Promise<INodeCredentialTestResult> {
	const { test } = credentialType;
	if (!test) return await testCredentialByNode(credentialType, data, opts);

	const env = createEnvironment({
		nodes: [],
		nodeTypes: {},
		credentialTypes: [credentialType, ...(opts.credentialTypes ?? [])],
		credentials: { [credentialType.name]: data },
		mode: 'internal',
		baseUrl: opts.baseUrl,
	});
	const additionalData = createAdditionalData(env);
	let credentialData: ICredentialDataDecryptedObject;
	try {
		credentialData = env.credentialsHelper.applyDefaultsAndExpressions(
			additionalData,
			deepCopy(data),
			credentialType.name,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message) };
	}

	const tempNodeType = {
		description: {
			displayName: 'No Operation',
			name: 'n8n-nodes-base.noOp',
			group: ['organization'],
			version: 1,
			description: 'Credential test',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	} as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: tempNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: 'temp', name: credentialType.name } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes({ [tempNodeType.description.name]: tempNodeType }),
	});
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({ executionData: null }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, tempNodeType, {
		id: 'temp',
		name: credentialType.name,
		type: credentialType.name,
		data: credentialData,
	});

	let response: INodeExecutionData[][] | undefined;
	try {
		response = await workflow.expression.withIsolate(async () => await routingNode.runNode());
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const { status, statusText } = cause.response;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String((error as Error).message) };
	}

	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json ?? {};
		const value = rule.properties.key
			.split('.')
			.reduce<unknown>((obj, key) => (obj as IDataObject | undefined)?.[key], body);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

export interface TriggerHarness {
	/** The workflow's static data, as n8n would persist it between activations. */
	staticData: IDataObject;
	/** Calls one of the node's webhookMethods as n8n does on activation (`isTest` for test mode). */
	lifecycle(method: 'checkExists' | 'create' | 'delete', isTest?: boolean): Promise<boolean>;
	webhookUrl(isTest?: boolean): string;
	/** Calls the node's webhook() as n8n's webhook endpoint does, recording a refusal's status. */
	receive(request: ResumeRequest): Promise<{
		response: IWebhookResponseData;
		status?: number;
		body?: unknown;
	}>;
}

/** One trigger node in a workflow that lives across calls, so static data persists like n8n's. */
export function triggerHarness(opts: RunWorkflowOptions & { node: string }): TriggerHarness {
	const env = createEnvironment({ ...opts, mode: opts.mode ?? 'trigger' });
	const nodes = opts.nodes.map((spec) => toNode(spec, env));
	const workflow = createWorkflow(env, {
		id: 'harness-trigger-workflow',
		name: 'Harness trigger workflow',
		active: true,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	const node = workflow.getNode(opts.node)!;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = (nodeType.description.webhooks ?? []).find((w) => !w.restartWebhook);
	if (!description) throw new Error(`Node "${node.name}" declares no webhook`);
	const webhookData = (isTest: boolean): IWebhookData => ({
		httpMethod: description.httpMethod as IHttpRequestMethods,
		node: node.name,
		path: String(description.path),
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: createAdditionalData(env),
		isTest,
	});
	const hookContext = (isTest: boolean) =>
		new HookContext(
			workflow,
			node,
			createAdditionalData(env),
			env.mode,
			isTest ? 'manual' : 'activate',
			webhookData(isTest),
		);
	return {
		staticData: workflow.staticData as IDataObject,
		webhookUrl: (isTest = false) => hookContext(isTest).getNodeWebhookUrl('default') as string,
		lifecycle: async (method, isTest = false) => {
			const methods = nodeType.webhookMethods?.default;
			if (!methods?.[method])
				throw new Error(`Node "${node.name}" has no webhookMethods.default.${method}`);
			return await methods[method].call(hookContext(isTest));
		},
		receive: async (request) => {
			const additionalData = createAdditionalData(env);
			additionalData.httpRequest = {
				method: request.method ?? 'POST',
				body: request.body ?? {},
				headers: Object.fromEntries(
					Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
				),
				query: request.query ?? {},
				params: {},
			} as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
			const { answered, response: httpResponse } = recordingResponse();
			additionalData.httpResponse = httpResponse;
			const context = new WebhookContext(
				workflow,
				node,
				additionalData,
				env.mode,
				{
					...webhookData(false),
					workflowExecuteAdditionalData: additionalData,
				},
				[],
				null,
			);
			const response = await nodeType.webhook!.call(context);
			return { response, ...answered };
		},
	};
}

/** Stands in for express's response: records what a webhook answers when it answers itself. */
function recordingResponse() {
	const answered: { status?: number; body?: unknown } = {};
	const response = {
		status(code: number) {
			answered.status = code;
			return this;
		},
		json(body: unknown) {
			answered.body = body;
			return this;
		},
		send(body: unknown) {
			answered.body = body;
			return this;
		},
		end() {
			return this;
		},
	} as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
	return { answered, response };
}
