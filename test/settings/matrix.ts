import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';

import { EcommerceSearch } from '../../nodes/EcommerceSearch/EcommerceSearch.node';
import { ReviewScraper } from '../../nodes/ReviewScraper/ReviewScraper.node';
import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { SocialScraper } from '../../nodes/SocialScraper/SocialScraper.node';
import type { ApiName } from '../../simulator/schemas';
import type { Simulator } from '../../simulator/server';
import { answeredBy, expectedWorkflows, type OperationWorkflow } from '../engine/workflows';

/**
 * n8n's Settings tab on every operation, shared by the engine test and the real-n8n tests: each
 * action node's operations are read from its description, each operation's row from its workflow
 * file (`rowOf`), so a new operation fails both until it has one. Each case gets three items, in
 * this order: one the service refuses on the first try only (a `refused` fault on the operation's
 * endpoint, matching its marker), a good one, and one refused before anything is sent.
 */
export const REFUSAL = 'Refused by the service';
const CALLBACK = 'http://127.0.0.1:9/callback';

export const actionNodes: Record<string, INodeType> = {
	reviewScraper: new ReviewScraper(),
	ecommerceSearch: new EcommerceSearch(),
	socialScraper: new SocialScraper(),
	scrapingScheduler: new ScrapingScheduler(),
};

export interface Row {
	/** The endpoint the refused item's request goes to (where the fault is injected). */
	api: ApiName;
	method: string;
	parameters: IDataObject;
	/** The three input items; `tag` makes the subjects and markers of one case its own. */
	items(sim: Simulator, tag: string): Promise<[IDataObject, IDataObject, IDataObject]>;
	/** Text of the refused item's request that no other request holds; none: the API's next request. */
	marker?: (refused: IDataObject) => string;
	/** The subject (`simulator.submissions()`) of the good item, for operations that submit. */
	goodSubject?: (good: IDataObject) => string;
}

/** The simulator completes requests on its compressed clock: a few polls. */
async function completed(done: () => boolean): Promise<void> {
	for (let poll = 0; poll < 400 && !done(); poll++) {
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	if (!done()) throw new Error('The simulator did not complete the requests in 10 s');
}

/**
 * A call of a workflow file's `before`, through the service's API. Cases that follow each other
 * quickly meet its rate limit (10 requests per second per key; a bare 429, as in production).
 */
async function call(sim: Simulator, method: string, url: string, body: IDataObject) {
	for (let attempt = 1; ; attempt++) {
		const response = await fetch(url, {
			method,
			headers: { 'content-type': 'application/json', 'x-api-key': sim.config.apiKey },
			body: JSON.stringify(body),
		});
		if (response.status !== 429 || attempt === 5) return (await response.json()) as IDataObject;
		await response.arrayBuffer();
		await new Promise((resolve) => setTimeout(resolve, 1_100));
	}
}

/** Arranges what a workflow file's `before` holds; the ID the last step answered with. */
async function arrangeBefore(sim: Simulator, workflow: OperationWorkflow): Promise<string> {
	const fill = <T>(value: T): T =>
		JSON.parse(
			JSON.stringify(value)
				.replaceAll('{{sim}}', new URL(sim.urls.baseUrl).origin)
				.replaceAll('{{receiver}}', CALLBACK),
		) as T;
	let answered = '';
	for (const step of workflow.before ?? []) {
		const [method, url] = fill(step.call).split(' ');
		const answer = await call(sim, method, url, fill(step.body));
		const id = answeredBy(step, answer);
		// Its results are ready once the service starts calling back.
		if (step.deliveries !== 0)
			await completed(() => sim.deliveries().some((d) => String(d.ref) === id));
		answered = id;
	}
	return answered;
}

const ANSWERED = '{{answered}}';
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isLocator = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && '__rl' in value;
/** A parameter's value as an item gives it: a locator's value, `={{ "x" }}` as x. */
function plain(value: unknown): IDataObject[string] {
	const inner = isLocator(value) ? value.value : value;
	const literal = typeof inner === 'string' ? /^=\{\{ (".*") \}\}$/.exec(inner) : null;
	return literal ? (JSON.parse(literal[1]) as string) : (inner as IDataObject[string]);
}

/**
 * An operation's row, read from its workflow file: the last node's parameters, each of `vary`
 * read from the item; the refused and the good item are the file's values made two (a text gets
 * a suffix, an ID the service answers is arranged twice), the third takes the values of a
 * `badInput` row (by default the first without input that changes one parameter).
 */
export function rowOf(workflow: OperationWorkflow): Row {
	const {
		resource: _resource,
		operation: _operation,
		...own
	} = JSON.parse(
		JSON.stringify(workflow.nodes[workflow.nodes.length - 1].parameters).replaceAll(
			'{{receiver}}',
			CALLBACK,
		),
	) as IDataObject;
	const settings = workflow.settingsMatrix ?? {};
	const badRows = workflow.badInput ?? [];
	const changed = (row: (typeof badRows)[number]) =>
		Object.keys(row.parameters).filter((key) => !same(row.parameters[key], own[key]));
	const bad = settings.badInput
		? badRows.find((row) => row.case === settings.badInput)
		: badRows.find(
				(row) =>
					!row.input &&
					(settings.vary
						? changed(row).some((key) => settings.vary!.includes(key))
						: changed(row).length === 1),
			);
	if (!bad) throw new Error('No badInput row gives the item refused before sending');
	const vary = settings.vary ?? changed(bad);
	const ownValue = (key: string) => plain(own[key] ?? workflow.input?.[0]?.[key]);
	const badItem: IDataObject = Object.fromEntries(
		vary.map((key) => [
			key,
			key in bad.parameters
				? plain(bad.parameters[key])
				: (bad.input?.[bad.item ?? 0]?.[key] ?? ownValue(key)),
		]),
	);

	const parameters: IDataObject = { ...own };
	for (const key of vary.filter((k) => k in own)) parameters[key] = `={{ $json.${key} }}`;
	Object.assign(parameters, settings.parameters);

	const [subject] = vary;
	const fromService = ownValue(subject) === ANSWERED;
	const suffixed = !settings.items && !fromService && typeof ownValue(subject) === 'string';
	const last = workflow.requests[workflow.requests.length - 1];
	return {
		api: last.api as ApiName,
		method: last.method,
		parameters,
		items: async (sim, tag) => {
			if (workflow.configure) sim.configure(workflow.configure);
			const answered = workflow.before
				? [await arrangeBefore(sim, workflow), await arrangeBefore(sim, workflow)]
				: [];
			const suffix = tag.replace(/\W/g, '');
			const item = (role: string, n: number): IDataObject =>
				Object.fromEntries(
					vary.map((key) => {
						const value = ownValue(key);
						if (value === ANSWERED) return [key, answered[n]];
						return [key, typeof value === 'string' ? `${value}${role}${suffix}` : value];
					}),
				);
			const [refused, good] = settings.items ?? [item('refuse', 0), item('good', 1)];
			return [{ ...refused }, { ...good }, { ...badItem }];
		},
		// What only the refused item's request holds: a text's suffix, or its ID; a number: nothing.
		marker: suffixed
			? (refused) => String(refused[subject]).slice(String(ownValue(subject)).length)
			: settings.items || fromService
				? (refused) => String(refused[subject])
				: undefined,
		goodSubject: last.method === 'POST' ? (good) => String(good[subject]) : undefined,
	};
}

const rowsByNode = (): Record<string, Record<string, Row>> => {
	const result: Record<string, Record<string, Row>> = {};
	for (const { workflow } of expectedWorkflows()) {
		const { type, parameters = {} } = workflow.nodes[workflow.nodes.length - 1];
		const node = type.replace('n8n-nodes-review-scraping.', '');
		if (!actionNodes[node]) continue;
		(result[node] ??= {})[`${String(parameters.resource)}.${String(parameters.operation)}`] =
			rowOf(workflow);
	}
	return result;
};

/** Each operation's row, read from `test/engine/<Node>/<resource>/<operation>.workflow.json`. */
export const rows = rowsByNode();

/** Every resource and operation a node's description offers. */
export function operationsOf(type: INodeType): string[] {
	const { properties } = type.description;
	const resources = properties.find((p) => p.name === 'resource')?.options ?? [];
	return resources.flatMap((resource) => {
		const value = (resource as { value: string }).value;
		const operation = properties.find(
			(p: INodeProperties) =>
				p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value),
		);
		return (operation?.options ?? []).map(
			(option) => `${value}.${(option as { value: string }).value}`,
		);
	});
}

export function newestVersion(type: INodeType | IVersionedNodeType): number {
	const { version, defaultVersion } = type.description as INodeType['description'];
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
}

export type OnError = 'stop' | 'continueRegularOutput' | 'continueErrorOutput';
export const ON_ERROR_MODES: OnError[] = ['stop', 'continueRegularOutput', 'continueErrorOutput'];

export interface MatrixCase {
	node: string;
	operation: string;
	onError: OnError;
	retry: boolean;
}

export const cases: MatrixCase[] = Object.entries(actionNodes).flatMap(([node, type]) =>
	operationsOf(type).flatMap((operation) =>
		ON_ERROR_MODES.flatMap((onError) =>
			[false, true].map((retry) => ({ node, operation, onError, retry })),
		),
	),
);

export const missingRows = () => [
	...new Set(
		cases
			.filter(({ node, operation }) => !rows[node]?.[operation])
			.map(({ node, operation }) => `${node} ${operation}`),
	),
];

/** The node's settings and parameters for a case (without name, type and credentials). */
export function nodeSettings({ operation, onError, retry }: MatrixCase, row: Row) {
	const [resource, op] = operation.split('.');
	return {
		parameters: { resource, operation: op, ...row.parameters },
		...(onError === 'stop' ? {} : { onError }),
		// 1 ms: n8n reads 0 as "not set" and waits its default second.
		...(retry ? { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 } : {}),
	};
}

/**
 * Arranges a case on the simulator; returns its input items, whether the service refuses the first
 * one, and how to count its submissions. A row without a marker (a list: every item sends the same
 * request) can only have "the API's next request" refused, and which item's request arrives first
 * is not fixed (items are sent 5 at a time): the service refusal is left out for such a row unless
 * `refuseUnmarked` (for a run where item 0's is the only request sent).
 */
export async function arrange(sim: Simulator, row: Row, tag: string, refuseUnmarked = false) {
	const items = await row.items(sim, tag);
	const before = sim.submissions();
	const marker = row.marker?.(items[0]);
	const refused = marker !== undefined || refuseUnmarked;
	if (refused) {
		sim.injectFault({
			api: row.api,
			method: row.method,
			kind: 'refused',
			times: 1,
			...(marker ? { match: marker } : {}),
		});
	}
	const goodSent = () => {
		if (!row.goodSubject) return undefined;
		const subject = row.goodSubject(items[1]);
		return (sim.submissions()[subject] ?? 0) - (before[subject] ?? 0);
	};
	return { items, goodSent, refused };
}

export interface Observed {
	status: string;
	/** The node's recorded error: message and the item it names. */
	error?: { message?: string; itemIndex?: number };
	/** The node's outputs: success, then error when On Error sends errors there. */
	outputs: INodeExecutionData[][];
	/** Times the good item was submitted, for operations that submit. */
	goodSent?: number;
	/** Whether n8n keeps `details` on error-output items (2.x) or only `error` and `message` (1.x). */
	detailsKept: boolean;
	/** Whether the service refused item 0 on the first try (arrange). */
	refused: boolean;
}

const errorText = (json: IDataObject) => String(json.error ?? '');
const linkedTo = (item: INodeExecutionData) =>
	(item.pairedItem as { item: number } | undefined)?.item;

/** What n8n users expect of a case, checked on what an engine or a real n8n recorded. */
export function expectOutcome(
	{ onError, retry }: MatrixCase,
	row: Row,
	items: IDataObject[],
	observed: Observed,
): void {
	if (onError === 'stop') {
		// The item refused before sending stops every try with nothing sent.
		expect(observed.status).toBe('error');
		expect(observed.error?.itemIndex).toBe(2);
		expect(observed.error?.message).not.toBe(REFUSAL);
		if (row.goodSubject) expect(observed.goodSent).toBe(0);
		return;
	}

	// n8n tries again when the first output item is an error item: the refused item is first, so
	// with Retry On Fail the second try is where it passes.
	const refusedPasses = !observed.refused || retry;
	if (row.goodSubject) expect(observed.goodSent).toBe(1);

	expect(observed.status).toBe('success');
	const all = observed.outputs.flat();
	const failed = all.filter((item) => errorText(item.json) !== '');
	const passed = all.filter((item) => errorText(item.json) === '');
	expect(failed.map(linkedTo)).toEqual(refusedPasses ? [2] : [0, 2]);
	expect(new Set(passed.map(linkedTo))).toEqual(new Set(refusedPasses ? [0, 1] : [1]));
	for (const item of failed) {
		if (linkedTo(item) === 0) expect(item.json.error).toBe(REFUSAL);
		else expect(errorText(item.json)).not.toBe(REFUSAL);
	}

	if (onError === 'continueRegularOutput') {
		expect(observed.outputs.filter((output) => output.length > 0)).toHaveLength(1);
		const refusal = failed.find((item) => linkedTo(item) === 0);
		if (refusal) expect(refusal.json.httpCode).toBe('400');
		return;
	}
	const [success, errors = []] = observed.outputs;
	expect(success.every((item) => errorText(item.json) === '')).toBe(true);
	expect(errors.map(linkedTo)).toEqual(refusedPasses ? [2] : [0, 2]);
	for (const item of errors) {
		const index = linkedTo(item)!;
		// n8n merges the error over the input item: the failed item's own fields stay readable.
		expect(item.json).toMatchObject({ ...items[index], error: expect.any(String) });
		expect(typeof item.json.message).toBe('string');
		if (!observed.detailsKept) continue;
		expect(item.json.details).toEqual(expect.any(Object));
		if (index === 0) expect(item.json.details).toMatchObject({ httpCode: '400' });
	}
}

/** The parameters through which an operation is given a callback URL. */
const CALLBACK_PARAMETERS = ['callback', 'callbackUrl'];

const shownFor = (property: INodeProperties, resourceOperation: string) => {
	const [resource, operation] = resourceOperation.split('.');
	const show = property.displayOptions?.show ?? {};
	return (
		(show.resource?.includes(resource) ?? false) && (show.operation?.includes(operation) ?? false)
	);
};

export interface CallbackOperation {
	node: string;
	operation: string;
	/** The operation's callback parameter. */
	parameter: string;
	type: INodeType;
	/** Whether it offers Wait for Completion, which fills the callback itself. */
	waits: boolean;
	row: Row;
}

/**
 * Every operation whose form has a callback field, read from the nodes' descriptions, with its
 * matrix row: the operations whose results come back to a URL, so the ones the reachability check
 * must cover.
 */
export function callbackOperations(): CallbackOperation[] {
	return Object.entries(actionNodes).flatMap(([node, type]) =>
		operationsOf(type).flatMap((operation) => {
			const has = (names: string[]) =>
				type.description.properties.find(
					(property) => names.includes(property.name) && shownFor(property, operation),
				);
			const parameter = has(CALLBACK_PARAMETERS)?.name;
			const row = rows[node]?.[operation];
			if (!parameter || !row) return [];
			return [{ node, operation, parameter, type, waits: !!has(['waitForCompletion']), row }];
		}),
	);
}

/** Every operation that offers Wait for Completion, by "node resource.operation". */
export function waitingOperations(): string[] {
	return Object.entries(actionNodes).flatMap(([node, type]) =>
		operationsOf(type)
			.filter((operation) =>
				type.description.properties.some(
					(property) => property.name === 'waitForCompletion' && shownFor(property, operation),
				),
			)
			.map((operation) => `${node} ${operation}`),
	);
}
