import { HookContext, TriggerContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	INodeExecutionData,
	IWebhookData,
	IWebhookResponseData,
} from 'n8n-workflow';

import {
	createAdditionalData,
	createEnvironment,
	createWorkflow,
	type RunWorkflowOptions,
	toNode,
} from './environment';
import { attachRequest, type ResumeRequest } from './webhookRequest';

export interface TriggerHarness {
	/** The workflow's static data, as n8n would persist it between activations. */
	staticData: IDataObject;
	/** Calls one of the node's webhookMethods as n8n does on activation (`isTest` for test mode). */
	lifecycle(method: 'checkExists' | 'create' | 'delete', isTest?: boolean): Promise<boolean>;
	webhookUrl(isTest?: boolean): string;
	/**
	 * Runs the node's trigger() as n8n does on the leader when the workflow is published, with the
	 * crons it registers kept for the test to tick.
	 */
	activateTrigger(): Promise<ActiveTrigger>;
	/** Calls the node's webhook() as n8n's webhook endpoint does, recording a refusal's status. */
	receive(request: ResumeRequest): Promise<{
		response: IWebhookResponseData;
		status?: number;
		body?: unknown;
	}>;
}

export interface ActiveTrigger {
	/** The cron expressions trigger() registered. */
	crons: string[];
	/** Every emit, in order: one array per output. */
	emitted: INodeExecutionData[][][];
	/**
	 * The static data as n8n's database holds it: n8n saves a trigger's workflow static data when
	 * it emits (ActiveWorkflowManager's emit), not when a cron callback writes it.
	 */
	savedStaticData(): IDataObject;
	/** Runs every registered cron once, waiting for what its callback returns. */
	tick(): Promise<void>;
}

/**
 * One trigger node in a workflow that lives across calls, so static data persists like n8n's;
 * `staticData` starts it with what a previous process saved (a restart).
 */
export function triggerHarness(
	opts: RunWorkflowOptions & { node: string; staticData?: IDataObject },
): TriggerHarness {
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
		staticData: opts.staticData,
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
		activateTrigger: async () => {
			const crons: Array<{ expression: string; onTick: (at: Date) => unknown }> = [];
			const emitted: INodeExecutionData[][][] = [];
			const copy = () => JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			let saved = copy();
			const context = new TriggerContext(
				workflow,
				node,
				createAdditionalData(env),
				'trigger',
				'activate',
				(data) => {
					saved = copy();
					emitted.push(data);
				},
				(error) => {
					throw error;
				},
				(error) => {
					throw error;
				},
				{ registerCron: ({ expression }, onTick) => void crons.push({ expression, onTick }) },
			);
			await nodeType.trigger!.call(context);
			// n8n saves the static data again once the workflow is activated.
			saved = copy();
			return {
				crons: crons.map(({ expression }) => expression),
				emitted,
				savedStaticData: () => saved,
				tick: async () => {
					for (const cron of crons) await cron.onTick(new Date());
				},
			};
		},
		receive: async (request) => {
			const additionalData = createAdditionalData(env);
			const answered = attachRequest(additionalData, request);
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
