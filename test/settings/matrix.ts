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

/**
 * n8n's Settings tab on every operation, as one table shared by the engine test and the real-n8n
 * test: each action node's operations are read from its description, so a new operation fails
 * both until it has a row here. Each case gets three items, in this order: one the service refuses
 * on the first try only (a `refused` fault matching its marker), a good one, and one refused
 * before anything is sent.
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
	/** The API the refused item's request goes to (where the fault is injected). */
	api: ApiName;
	parameters: IDataObject;
	/** The three input items; `tag` makes the subjects and markers of one case its own. */
	items(sim: Simulator, tag: string): Promise<[IDataObject, IDataObject, IDataObject]>;
	/** Text of the refused item's request that no other request holds; none: the API's next request. */
	marker?: (refused: IDataObject) => string;
	/** The subject (`simulator.submissions()`) of the good item, for operations that submit. */
	goodSubject?: (good: IDataObject) => string;
	/** Checks every profile before sending any: a bad one stops the run before the first request. */
	checksAllFirst?: boolean;
}

const json = async (response: Response) => (await response.json()) as IDataObject;

/** The simulator completes requests on its compressed clock: a few polls. */
async function completed(done: () => boolean): Promise<void> {
	for (let poll = 0; poll < 400 && !done(); poll++) {
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	if (!done()) throw new Error('The simulator did not complete the requests in 10 s');
}

/**
 * A case's arrangement through the service's API. Cases that follow each other quickly meet its
 * rate limit (10 requests per second per key; a bare 429, as in production): wait and send again.
 */
async function post(url: string, sim: Simulator, body: IDataObject): Promise<IDataObject> {
	for (let attempt = 1; ; attempt++) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-api-key': sim.config.apiKey },
			body: JSON.stringify(body),
		});
		if (response.status !== 429 || attempt === 5) return await json(response);
		await response.arrayBuffer();
		await new Promise((resolve) => setTimeout(resolve, 1_100));
	}
}

async function completedPhotoSearches(sim: Simulator, tag: string): Promise<string[]> {
	const ids = await Promise.all(
		[1, 2].map(async (n) =>
			String(
				(
					await post(`${sim.urls.photoScraperUrl}/v1/search`, sim, {
						keyword: `#matrix${tag}${n}`,
						callback_url: CALLBACK,
					})
				).request_id,
			),
		),
	);
	await completed(() => ids.every((id) => sim.state.photoRequests.get(id)?.status === 'completed'));
	return ids;
}

async function completedScrapes(sim: Simulator, tag: string): Promise<string[]> {
	const ids = await Promise.all(
		[1, 2].map(async (n) =>
			String(
				(
					await post(`${sim.urls.socialScraperUrl}/v1/scrape`, sim, {
						url: `https://social.example.com/${tag}/posts/${n}`,
						callback_url: CALLBACK,
					})
				).request_id,
			),
		),
	);
	await completed(() =>
		ids.every((id) => sim.state.socialRequests.get(id)?.status === 'completed'),
	);
	return ids;
}

async function schedules(sim: Simulator, tag: string): Promise<number[]> {
	const ids: number[] = [];
	for (const n of [1, 2]) {
		const body = await post(`${sim.urls.schedulingUrl}/schedules`, sim, {
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			schedule_name: `matrix ${tag} ${n}`,
			query_params: { url: `https://reviews.example.com/s/${tag}/${n}`, callback: CALLBACK },
		});
		ids.push(Number((body.results as IDataObject[])[0].schedule_id));
	}
	return ids;
}

// A marker that reads the same in a query string and in a JSON body.
const byUrl =
	(prefix: string): Row['items'] =>
	async (_sim, tag) => [
		{ url: `${prefix}/refuse-me-${tag}` },
		{ url: `${prefix}/good-${tag}` },
		{ url: '' },
	];
const byId =
	(ids: (sim: Simulator, tag: string) => Promise<Array<string | number>>, field: string) =>
	async (sim: Simulator, tag: string): Promise<[IDataObject, IDataObject, IDataObject]> => {
		const [refused, good] = await ids(sim, tag);
		return [{ [field]: refused }, { [field]: good }, { [field]: '' }];
	};
const idInPath = (field: string) => (item: IDataObject) => `/${String(item[field])}`;
const refusedUrl = (item: IDataObject) => String(item.url).split('/').at(-1)!;
const respondJobIds = async (sim: Simulator) => sim.state.respondJobs.map((job) => job.job_id);
const listItems: Row['items'] = async () => [{ limit: 1 }, { limit: 2 }, { limit: 'many' }];
const limitFromItem = { returnAll: false, limit: '={{ $json.limit }}' };
const scheduleFromItem = { scheduleId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } };

export const rows: Record<string, Record<string, Row>> = {
	reviewScraper: {
		'profile.add': {
			api: 'review',
			parameters: { url: '={{ $json.url }}', callback: CALLBACK },
			items: byUrl('https://reviews.example.com/m'),
			marker: refusedUrl,
			goodSubject: (good) => String(good.url),
		},
		'profile.addMany': {
			api: 'review',
			parameters: { inputMode: 'autoMap', callback: CALLBACK, options: { batchSize: 1 } },
			items: byUrl('https://reviews.example.com/bulk'),
			marker: refusedUrl,
			goodSubject: (good) => String(good.url),
			checksAllFirst: true,
		},
		'respondJob.get': {
			api: 'review',
			parameters: { jobId: '={{ $json.jobId }}' },
			items: byId(respondJobIds, 'jobId'),
			marker: idInPath('jobId'),
		},
		'respondJob.getAll': { api: 'review', parameters: limitFromItem, items: listItems },
		'listingAudit.get': {
			api: 'review',
			parameters: { jobId: '={{ $json.jobId }}' },
			items: byId(respondJobIds, 'jobId'),
			marker: (item) => `job_id=${String(item.jobId)}`,
		},
	},
	ecommerceSearch: {
		'product.search': {
			api: 'ecommerce',
			parameters: { keyword: '={{ $json.keyword }}', sources: ['amazon'], callbackUrl: CALLBACK },
			items: async (_sim, tag) => [
				{ keyword: `refuse-me-${tag}` },
				{ keyword: `good-${tag}` },
				{ keyword: '' },
			],
			marker: (item) => String(item.keyword),
			goodSubject: (good) => String(good.keyword),
		},
	},
	socialScraper: {
		'photoPost.search': {
			api: 'photo',
			parameters: { keyword: '={{ $json.keyword }}', callbackUrl: CALLBACK },
			items: async (_sim, tag) => [
				{ keyword: `#refuse${tag}` },
				{ keyword: `#good${tag}` },
				{ keyword: '' },
			],
			marker: (item) => String(item.keyword),
			goodSubject: (good) => String(good.keyword),
		},
		'photoPost.getResults': {
			api: 'photo',
			parameters: { requestId: '={{ $json.requestId }}' },
			items: byId(completedPhotoSearches, 'requestId'),
			marker: idInPath('requestId'),
		},
		'photoPost.getStatus': {
			api: 'photo',
			parameters: { requestId: '={{ $json.requestId }}' },
			items: byId(completedPhotoSearches, 'requestId'),
			marker: idInPath('requestId'),
		},
		'socialPost.scrape': {
			api: 'social',
			parameters: { url: '={{ $json.url }}', callbackUrl: CALLBACK },
			items: byUrl('https://social.example.com/matrix'),
			marker: refusedUrl,
			goodSubject: (good) => String(good.url),
		},
		'socialPost.getResults': {
			api: 'social',
			parameters: { requestId: '={{ $json.requestId }}' },
			items: byId(completedScrapes, 'requestId'),
			marker: idInPath('requestId'),
		},
		'videoRequest.getStatus': {
			api: 'video',
			parameters: { requestId: '={{ $json.requestId }}' },
			items: byId(
				async (sim) => [sim.seedVideoRequest().request_id, sim.seedVideoRequest().request_id],
				'requestId',
			),
			marker: idInPath('requestId'),
		},
	},
	scrapingScheduler: {
		'schedule.create': {
			api: 'scheduling',
			parameters: {
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				scheduleName: '={{ $json.name }}',
				parametersInput: 'fields',
				url: '={{ $json.url }}',
				callback: CALLBACK,
			},
			items: async (_sim, tag) => [
				{ name: `refuse-me ${tag}`, url: `https://reviews.example.com/c/${tag}/1` },
				{ name: `good ${tag}`, url: `https://reviews.example.com/c/${tag}/2` },
				{ name: `bad ${tag}`, url: '' },
			],
			marker: (item) => String(item.name),
			goodSubject: (good) => String(good.name),
		},
		'schedule.get': {
			api: 'scheduling',
			parameters: scheduleFromItem,
			items: byId(schedules, 'id'),
			marker: idInPath('id'),
		},
		'schedule.getAll': {
			api: 'scheduling',
			parameters: limitFromItem,
			items: async (sim, tag) => {
				await schedules(sim, tag);
				return await listItems(sim, tag);
			},
		},
		'schedule.deleteSchedule': {
			api: 'scheduling',
			parameters: scheduleFromItem,
			items: byId(schedules, 'id'),
			marker: idInPath('id'),
		},
	},
};

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
	// n8n tries again after an error, or (continuing) when the first item is an error item: the
	// refused item is first, so with Retry On Fail the second try is where it passes.
	const refusedPasses = !observed.refused || (retry && !(onError === 'stop' && row.checksAllFirst));
	if (row.goodSubject) {
		expect(observed.goodSent).toBe(onError === 'stop' && row.checksAllFirst ? 0 : 1);
	}

	if (onError === 'stop') {
		expect(observed.status).toBe('error');
		// The first try stops at the service's refusal of item 0 (or, checking every profile first,
		// at item 2); a second try gets item 0 through and stops at item 2.
		const failingItem = retry || row.checksAllFirst || !observed.refused ? 2 : 0;
		expect(observed.error?.itemIndex).toBe(failingItem);
		if (failingItem === 0) expect(observed.error?.message).toBe(REFUSAL);
		else expect(observed.error?.message).not.toBe(REFUSAL);
		return;
	}

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
