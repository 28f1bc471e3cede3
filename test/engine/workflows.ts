import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { ConfigPatch } from '../../simulator/config';
import type { NodeSpec } from './harness';

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

/** `<Node>/<resource>/<operation>.workflow.json`: one operation run through the engine. */
export interface OperationWorkflow {
	/** Chained in this order; the last is the node under test. */
	nodes: NodeSpec[];
	input?: IDataObject[];
	/** The simulator's settings for this workflow (a reset restores them). */
	configure?: ConfigPatch;
	/** What the simulator holds first: a call to its API (`"POST {{sim}}/…"`), or a seeded record. */
	before?: Array<
		{ call: string; body: IDataObject; deliveries?: number } | { seedVideoRequest: IDataObject }
	>;
	requests: ObservedRequest[];
	/** The last node's first output; or one `{ error }` when the execution failed. */
	output: IDataObject[];
}

/** `Node/resource/operation.workflow.json` of every operation in the nodes' operation tables. */
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
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				const table = require(join(nodesDir, node, 'actions', resource)) as {
					operations: Record<string, unknown>;
				};
				return Object.keys(table.operations).map((op) => join(node, resource, op + SUFFIX));
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

export function expectedWorkflows() {
	return [...files(__dirname)]
		.map((path) => ({
			file: relative(__dirname, path).split(sep).join('/'),
			path,
			workflow: JSON.parse(readFileSync(path, 'utf8')) as OperationWorkflow,
		}))
		.sort((a, b) => (a.file < b.file ? -1 : 1));
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
