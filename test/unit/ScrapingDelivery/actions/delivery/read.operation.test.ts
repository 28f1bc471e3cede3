import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { ScrapingDelivery } from '../../../../../nodes/ScrapingDelivery/ScrapingDelivery.node';
import { receive } from '../../../ScrapingCallbackTrigger/fakeWebhook';

const SECRET = 's3cret-value';

const reviewJob = (id: number | string, reviews: IDataObject[] = [{ review_id: 'r1' }]) => ({
	job_id: id,
	status: 'complete',
	success: true,
	reviews,
});

const photoSearch: IDataObject = {
	request_id: 'ph-1',
	status: 'completed',
	request_metadata: {
		keyword: '#pizza',
		callback_url: `https://n8n.example.com/webhook/deliveries?secret=${SECRET}`,
		external_identifier: null,
	},
	results: [{ post_id: '1' }],
	summary: { total_posts: 1, unique_user_count: 1 },
	pagination: { total: 1, page: 1, per_page: 1, total_pages: 1 },
};

/** A delivery as n8n's Webhook node outputs it. */
const received = (
	body: unknown,
	query: IDataObject = {},
	headers: IDataObject = {},
): IDataObject => ({
	headers: { 'content-type': 'application/json', ...headers },
	params: {},
	query,
	body: body as IDataObject,
	webhookUrl: 'https://n8n.example.com/webhook/deliveries',
	executionMode: 'production',
});

let workflowCounter = 0;

/** One workflow, whose static data and repeat memory persist across its runs. */
function workflow(parameters: IDataObject = {}, continueOnFail = false) {
	const id = `delivery-workflow-${++workflowCounter}`;
	const staticData: IDataObject = {};
	const node = new ScrapingDelivery();
	const run = async (...inputs: IDataObject[]): Promise<INodeExecutionData[]> => {
		const all: IDataObject = {
			resource: 'delivery',
			operation: 'read',
			kinds: [],
			requireSecret: false,
			options: {},
			...parameters,
		};
		const context = {
			getInputData: () => inputs.map((json) => ({ json })),
			getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
				all[name] ?? fallback,
			getNode: () => ({
				id: 'delivery-node',
				name: 'Scraping Delivery',
				type: 'n8n-nodes-review-scraping.scrapingDelivery',
				typeVersion: 1,
				position: [0, 0],
				parameters: all,
			}),
			getWorkflow: () => ({ id }),
			getWorkflowStaticData: () => staticData,
			continueOnFail: () => continueOnFail,
		} as unknown as IExecuteFunctions;
		const [output] = await node.execute.call(context);
		return output;
	};
	return { run, staticData };
}

const jsonOf = (items: INodeExecutionData[]) => items.map(({ json }) => json);

/** What the Scraping Callback Trigger starts its workflow with for the same delivery. */
const triggerItems = async (body: IDataObject, parameters: IDataObject = {}) =>
	(await receive({ body, parameters })).items;

describe('Scraping Delivery → Read: the items the Callback Trigger would start with', () => {
	it.each([
		['one item per delivery', {}],
		['Split Results', { splitResults: true }],
	])('%s: the same items as the trigger, each linked to its input item', async (_name, options) => {
		const body = reviewJob(41, [{ review_id: 'a' }, { review_id: 'b' }]);
		const output = await workflow({ options }).run(received(body));
		expect(jsonOf(output)).toEqual(await triggerItems(body, { options }));
		expect(output.length).toBe('splitResults' in options ? 2 : 1);
		expect(output.every(({ json }) => json.payload === undefined)).toBe('splitResults' in options);
		expect(output.every(({ pairedItem }) => (pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
		expect(output[0].json).toMatchObject({
			kind: 'reviewJob',
			id: '41',
			outcome: 'completed',
			recordCount: 2,
			deliveryKey: expect.stringMatching(/^reviewJob:41:[0-9a-f]{32}$/),
		});
	});

	it('reads several deliveries at once, each output linked to its own input item', async () => {
		const output = await workflow({ kinds: ['reviewJob'] }).run(
			received(reviewJob(1)),
			received(photoSearch),
			received(reviewJob(2)),
		);
		expect(output.map(({ json, pairedItem }) => [json.id, pairedItem])).toEqual([
			['1', { item: 0 }],
			['2', { item: 2 }],
		]);
	});
});

describe('Scraping Delivery → Read: the secret', () => {
	const requiring = (location: string) => ({
		requireSecret: true,
		secret: SECRET,
		secretLocation: location,
	});

	it.each([
		['query', [{}, {}], false],
		['query', [{}, { 'x-callback-secret': SECRET }], false],
		['header', [{}, { 'x-callback-secret': SECRET }], true],
		['header', [{}, { 'x-callback-secret': 'wrong' }], false],
		['header', [{ secret: SECRET }, {}], false],
	] as Array<[string, [IDataObject, IDataObject], boolean]>)(
		'in the %s, carrying %j: read %s',
		async (location, [query, headers], readable) => {
			const run = workflow(requiring(location)).run(received(reviewJob(3), query, headers));
			if (readable) expect(jsonOf(await run)).toMatchObject([{ kind: 'reviewJob', id: '3' }]);
			else await expect(run).rejects.toThrow('Invalid or missing callback secret (item 0)');
		},
	);
});

describe('Scraping Delivery → Read: what gives no item', () => {
	it.each([
		...[[1, 2], 'not json', {}, undefined, null].map((body) => received(body)),
		{ job_id: 1, reviews: [] },
	])('fails on the item %j, naming it', async (item) => {
		await expect(workflow().run(item)).rejects.toThrow(
			'The callback body must be a JSON object (item 0)',
		);
	});

	it('gives nothing for a kind left out of Callback Kinds, and reads an unknown kind', async () => {
		const { run } = workflow({ kinds: ['productSearch'] });
		expect(await run(received(reviewJob(9)))).toEqual([]);
		expect(jsonOf(await run(received({ hello: 'world' })))).toMatchObject([{ kind: 'unknown' }]);
	});

	it('marks a re-sync of a delivery it read', async () => {
		const { run, staticData } = workflow();
		expect(await run(received(reviewJob(11)))).toHaveLength(1);
		const resync = await run(received(reviewJob(11, [{ review_id: 'new' }])));
		expect(resync[0].json).toMatchObject({
			redelivery: 'update',
			previousDeliveryAt: expect.any(String),
		});
		expect((staticData.recentDeliveries as IDataObject[]).map(({ key }) => key)).toEqual([
			'reviewJob:11',
			'reviewJob:11',
		]);
	});

	it('remembers per node: another workflow reads the same delivery', async () => {
		expect(await workflow().run(received(reviewJob(15)))).toHaveLength(1);
		expect(await workflow().run(received(reviewJob(15)))).toHaveLength(1);
	});
});
