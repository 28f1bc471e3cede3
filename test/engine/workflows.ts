import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import type {
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import type { ConfigPatch } from '../../simulator/config';
import type { Simulator } from '../../simulator/server';
import { credentialsFor, credentialTypes, nodeTypes } from './fixtures';
import { runWorkflow, type NodeSpec } from './harness';

const ROOT = join(__dirname, '..', '..');
const SUFFIX = '.workflow.json';

/** A request as the simulator received it, and as a workflow file expects it. */
export interface ObservedRequest {
	method: string;
	api: string;
	path: string;
	query?: IDataObject;
	body?: unknown;
}

/** A call to the simulator's API (`"POST {{sim}}/…"`) made before the run. */
export interface BeforeStep {
	call: string;
	body: IDataObject;
	/** The answer's field (a dotted path) that `{{answered}}` stands for in the rest of the file. */
	answered: string;
	/** Callbacks to wait for before the run; 1 unless given. */
	deliveries?: number;
}

/** What a workflow file holds beside the n8n workflow: the service's side, and what else is tested. */
interface ServiceSide {
	/** The simulator's settings for this workflow (a reset restores them). */
	configure?: ConfigPatch;
	/** What the simulator holds first. */
	before?: BeforeStep[];
	/** Faults the simulator answers the workflow's requests with. */
	faults?: Array<Parameters<Simulator['injectFault']>[0]>;
	requests: ObservedRequest[];
	/** Its error output (On Error → Continue (using error output)), when anything is there. */
	errorOutput?: IDataObject[];
	/** Inputs refused before anything is sent: the last node's parameters but its resource and operation. */
	badInput?: Array<{
		case: string;
		typeVersion?: number;
		parameters: INodeParameters;
		input?: IDataObject[];
		/** The start of the message, a regular expression naming the field. */
		error: string;
		/** The item the message names; 0 unless given. */
		item?: number;
	}>;
	/** What the Settings-tab matrix (test/settings/matrix.ts) cannot read from the rest of the file. */
	settingsMatrix?: {
		/** Parameters (or input fields) each item gives; by default the one `badInput`'s row changes. */
		vary?: string[];
		/** The `badInput` row (its `case`) that gives the item refused before sending. */
		badInput?: string;
		/** The refused and the good item, where the file's own values cannot be made two. */
		items?: [IDataObject, IDataObject];
		/** Parameters the matrix sets over the file's. */
		parameters?: INodeParameters;
	};
}

type Failure = { error?: string; description?: string | null };

/**
 * `<Node>/<resource>/<operation>.workflow.json`, as n8n exports a workflow: a Manual Trigger whose
 * pinned data is the input (one empty item when none is pinned), then the nodes in a chain; the
 * last one's pinned data is its expected output. n8n's public API refuses a workflow with keys it
 * does not know, so a client sends it `nodes`, `connections` and `pinData` only; the editor's
 * import reads those and leaves the rest, the service's side, to this runner.
 */
export type WorkflowFile = ServiceSide & {
	nodes: Array<NodeSpec & Pick<INode, 'id' | 'position' | 'typeVersion' | 'parameters'>>;
	connections: IConnections;
	pinData: Record<string, Array<{ json: IDataObject }>>;
	/** The execution's error, when it failed: the last node then has no pinned output. */
	error?: Failure;
};

/** A workflow file in the runner's terms: one operation run through the engine. */
export interface OperationWorkflow extends ServiceSide {
	/** Chained in this order after the trigger; the last is the node under test. */
	nodes: NodeSpec[];
	input?: IDataObject[];
	/** The last node's first output; or one `{ error, description }` when the execution failed. */
	output: IDataObject[];
}

const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';

function chain(names: string[]): IConnections {
	return Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	) as IConnections;
}

/** The runner's view of a file, whose connections must chain its nodes in their order. */
export function operationOf(file: WorkflowFile): OperationWorkflow {
	const { nodes, connections, pinData, error, ...service } = file;
	const [trigger, ...chained] = nodes;
	if (trigger?.type !== MANUAL_TRIGGER) throw new Error('The first node is not a Manual Trigger');
	const names = nodes.map(({ name }) => name);
	if (JSON.stringify(connections) !== JSON.stringify(chain(names))) {
		throw new Error(`The connections do not chain ${names.join(' → ')}`);
	}
	const pinned = (name: string) => pinData[name]?.map(({ json }) => json);
	const input = pinned(trigger.name);
	return {
		...service,
		nodes: chained.map(({ id: _id, position: _position, ...spec }) => spec),
		...(input ? { input } : {}),
		output: error ? [error as IDataObject] : (pinned(chained[chained.length - 1].name) ?? []),
	};
}

/** The file with what a run observed as its expectation. */
export function withObserved(
	file: WorkflowFile,
	{ requests, output, errorOutput }: Pick<OperationWorkflow, 'requests' | 'output' | 'errorOutput'>,
): WorkflowFile {
	const { nodes, connections, pinData, error: _error, errorOutput: _errorOutput, ...rest } = file;
	const last = nodes[nodes.length - 1].name;
	const { [last]: _output, ...inputs } = pinData;
	const failed = output.length === 1 && 'error' in output[0] && 'description' in output[0];
	return {
		nodes,
		connections,
		pinData: failed ? inputs : { ...inputs, [last]: output.map((json) => ({ json })) },
		...rest,
		requests,
		...(failed ? { error: output[0] as Failure } : {}),
		...(errorOutput ? { errorOutput } : {}),
	};
}

/** `Node/resource/operation` of every operation in the nodes' operation tables. */
export function operationsOfTables(): string[] {
	const nodesDir = join(ROOT, 'nodes');
	return readdirSync(nodesDir)
		.flatMap((node) => {
			let resources: string[] = [];
			try {
				resources = readdirSync(join(nodesDir, node, 'actions'), { withFileTypes: true })
					.filter((entry) => entry.isDirectory())
					.map((entry) => entry.name);
			} catch {
				return [];
			}
			return resources.flatMap((resource) => {
				const table = require(join(nodesDir, node, 'actions', resource)) as {
					operations: Record<string, unknown>;
				};
				return Object.keys(table.operations).map((op) => [node, resource, op].join('/'));
			});
		})
		.sort();
}

function* files(dir: string): Generator<string> {
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) yield* files(path);
		else if (entry.name.endsWith(SUFFIX)) yield path;
	}
}

/**
 * Every workflow file: `<operation>.workflow.json`, or `<operation>.<variant>.workflow.json` for
 * more of the same operation (the matrices run the first kind only).
 */
export function expectedWorkflows({ variants = false } = {}) {
	return [...files(__dirname)]
		.map((path) => {
			const file = relative(__dirname, path).split(sep).join('/');
			const [operation, variant] = file.slice(0, -SUFFIX.length).split('.');
			return {
				file,
				operation,
				variant,
				path,
				workflow: operationOf(JSON.parse(readFileSync(path, 'utf8')) as WorkflowFile),
			};
		})
		.filter(({ variant }) => variants || !variant)
		.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** The value of the answer's field that `{{answered}}` stands for. */
export function answeredBy(step: BeforeStep, answer: unknown): string {
	const value = step.answered
		.split('.')
		.reduce<unknown>((field, key) => (field as IDataObject | undefined)?.[key], answer);
	if (value === undefined) throw new Error(`${step.call} answered no ${step.answered}`);
	return String(value);
}

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Times the simulator stamps become `{{time}}`; its origin and the receiver's their placeholders. */
export function normalise<T>(value: T, origins: Record<string, string>): T {
	return JSON.parse(JSON.stringify(value), (_key, field: unknown) => {
		if (typeof field !== 'string') return field;
		if (TIME.test(field)) return '{{time}}';
		let text = field;
		for (const [origin, placeholder] of Object.entries(origins)) {
			text = text.replaceAll(origin, placeholder);
		}
		return text;
	}) as T;
}

/**
 * Arranges the simulator as the workflow asks, runs it, and gives what was observed in the
 * workflow file's terms. `arranged` runs between the arrangement and the run (a fault to inject).
 */
export async function runOperation(
	sim: Simulator,
	receiverUrl: string,
	workflow: OperationWorkflow,
	{
		arranged = () => {},
		credentials = credentialsFor(sim),
		settings = {},
	}: {
		arranged?: () => void;
		credentials?: ReturnType<typeof credentialsFor>;
		/** Settings of the node under test, such as `continueOnFail`. */
		settings?: Partial<NodeSpec>;
	} = {},
) {
	const origins = { [new URL(sim.urls.baseUrl).origin]: '{{sim}}', [receiverUrl]: '{{receiver}}' };
	let answered = '';
	const fill = <T>(value: T): T => {
		let text = JSON.stringify(value).replaceAll('{{answered}}', answered);
		for (const [origin, placeholder] of Object.entries(origins)) {
			text = text.replaceAll(placeholder, origin);
		}
		return JSON.parse(text) as T;
	};
	if (workflow.configure) sim.configure(workflow.configure);
	for (const step of workflow.before ?? []) {
		const [method, url] = fill(step.call).split(' ');
		const response = await fetch(url, {
			method,
			headers: { 'content-type': 'application/json', 'x-api-key': sim.config.apiKey },
			body: JSON.stringify(fill(step.body)),
		});
		if (!response.ok) throw new Error(`${step.call} answered HTTP ${response.status}`);
		answered = answeredBy(step, await response.json());
		await sim.waitForDeliveries(step.deliveries ?? 1, 5000);
	}
	sim.clearRequests();
	for (const fault of workflow.faults ?? []) sim.injectFault(fault);
	arranged();
	const nodes = fill(workflow.nodes);
	nodes[nodes.length - 1] = { ...nodes[nodes.length - 1], ...settings };
	const run = await runWorkflow({
		nodes,
		nodeTypes,
		credentialTypes,
		credentials,
		inputItems: fill(workflow.input ?? [{}]).map((json): INodeExecutionData => ({ json })),
	});
	const node = nodes[nodes.length - 1].name;
	// Items are sent a few at a time: the order their requests arrive in is not promised.
	const ordered = (list: ObservedRequest[]) =>
		(workflow.input?.length ?? 1) > 1
			? [...list].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
			: list;
	// A request the rate limit refused (10 a second per key) is no read: the transport sends it again.
	const requests = sim.requests().filter((request) => !request.rateLimited);
	const observed: Pick<OperationWorkflow, 'requests' | 'output' | 'errorOutput'> = normalise(
		{
			requests: ordered(
				requests.map(({ method, api, path, query, body }) => ({
					method,
					api,
					path,
					...(Object.keys(query).length ? { query } : {}),
					...(body === undefined || body === null ? {} : { body }),
				})),
			),
			output:
				run.status === 'success'
					? run.json(node)
					: [{ error: run.error?.message, description: run.error?.description }],
			...(run.status === 'success' && run.json(node, 1).length
				? { errorOutput: run.json(node, 1) }
				: {}),
		},
		origins,
	);
	return { run, node, requests, observed };
}
