import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { ScrapingCallbackTrigger } from '../../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';
import { payloadId, recognizePayload } from '../../../nodes/shared/callbackPayload';
import { secretsMatch } from '../../../nodes/shared/secret';

const samples: Record<string, IDataObject> = {
	reviewJob: { job_id: 41, status: 'complete', success: true, reviews: [{ review_id: 'r1' }] },
	productSearch: {
		request_id: 'p-1',
		status: 'success',
		credits_used: 3,
		results: [{ unique_id: 'u', source: 'shop', full_price: 3 }],
		pagination: { current_page: 1, page_size: 100, total_pages: 1 },
		summary: { total_results: 1, products_per_source: [{ source: 'shop', count: 1 }] },
	},
	photoSearch: {
		request_id: 'ph-1',
		status: 'completed',
		request_metadata: { keyword: '#pizza', callback_url: 'x', external_identifier: null },
		results: [{ post_id: '1' }],
		summary: { total_posts: 1, unique_user_count: 1 },
		pagination: { total: 1, page: 1, per_page: 1, total_pages: 1 },
	},
	socialScrape: {
		request_id: 's-1',
		status: 'completed',
		request_metadata: {
			url: 'https://social.example.com/p/1',
			callback_url: 'x',
			get_comments: false,
		},
		results: [{ post_id: '1' }],
		summary: null,
		pagination: null,
	},
	videoRequest: {
		request_id: 'v-1',
		created_at: '2026-01-01T00:00:00+00:00',
		updated_at: '2026-01-01T00:01:00+00:00',
		status: 'completed',
		credits_used: 1,
		request_metadata: {
			url: 'https://video.example.com/v/1',
			callback_url: 'x',
			get_comments: true,
		},
	},
	reviewIndex: { request_id: 'ri-1', status: 'completed', endpoint: 'profiles', results: [] },
	unknown: { hello: 'world' },
};

describe('payload recognition', () => {
	it.each(Object.entries(samples))('recognises a %s payload', (kind, payload) => {
		expect(recognizePayload(payload)).toBe(kind);
	});

	it('uses job_id for review jobs and request_id otherwise', () => {
		expect(payloadId(samples.reviewJob)).toBe('41');
		expect(payloadId(samples.photoSearch)).toBe('ph-1');
		expect(payloadId(samples.unknown)).toBeUndefined();
	});
});

describe('secret comparison', () => {
	it.each([
		['s3cret', 's3cret', true],
		['s3cret ', 's3cret', false],
		['', 's3cret', false],
		[undefined, 's3cret', false],
		[['s3cret'], 's3cret', false],
		['anything', '', false],
	])('%j against %j → %s', (given, expected, result) => {
		expect(secretsMatch(given, expected)).toBe(result);
	});
});

interface FakeRequest {
	body: unknown;
	query?: IDataObject;
	headers?: IDataObject;
	parameters?: IDataObject;
}

let workflowCounter = 0;

function webhookContext(request: FakeRequest, staticData: IDataObject = {}) {
	// One workflow per static data object, as in n8n: the remembered IDs belong to it.
	const workflowId = String((staticData.workflowId ??= `workflow-${++workflowCounter}`));
	const answered: { status?: number; body?: unknown } = {};
	const parameters: IDataObject = {
		kinds: [],
		requireSecret: false,
		options: {},
		...request.parameters,
	};
	const context = {
		getResponseObject: () => ({
			status(code: number) {
				answered.status = code;
				return this;
			},
			json(body: unknown) {
				answered.body = body;
				return this;
			},
		}),
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
		getHeaderData: () => request.headers ?? {},
		getQueryData: () => request.query ?? {},
		getBodyData: () => request.body,
		getWorkflowStaticData: () => staticData,
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: 'callback-trigger' }),
	};
	return { context: context as unknown as IWebhookFunctions, answered, staticData };
}

const trigger = new ScrapingCallbackTrigger();
const receive = (request: FakeRequest, staticData?: IDataObject) => {
	const fake = webhookContext(request, staticData);
	return trigger.webhook.call(fake.context).then((result) => ({ result, ...fake }));
};

describe('Scraping Callback Trigger webhook', () => {
	it('starts the workflow with the recognised kind, id and payload and answers 200', async () => {
		const { result } = await receive({ body: samples.photoSearch });
		expect(result.webhookResponse).toEqual({ received: true });
		expect(result.workflowData).toEqual([
			[{ json: { kind: 'photoSearch', id: 'ph-1', payload: samples.photoSearch } }],
		]);
	});

	it('splits the results into one item per record when asked', async () => {
		const { result } = await receive({
			body: { ...samples.reviewJob, reviews: [{ review_id: 'a' }, { review_id: 'b' }] },
			parameters: { options: { splitResults: true } },
		});
		expect(result.workflowData?.[0].map((item) => item.json)).toEqual([
			{ kind: 'reviewJob', id: '41', record: { review_id: 'a' } },
			{ kind: 'reviewJob', id: '41', record: { review_id: 'b' } },
		]);
	});

	it('acknowledges but ignores kinds that are filtered out', async () => {
		const { result } = await receive({
			body: samples.socialScrape,
			parameters: { kinds: ['reviewJob', 'photoSearch'] },
		});
		expect(result.workflowData).toBeUndefined();
		expect(result.webhookResponse).toEqual({ received: true, ignored: 'socialScrape' });
	});

	it.each([
		['query', { query: { secret: 'right' } }, undefined],
		['query', { query: { secret: 'wrong' } }, 401],
		['query', {}, 401],
		['header', { headers: { 'x-callback-secret': 'right' } }, undefined],
		['header', { query: { secret: 'right' } }, 401],
	])('secret in the %s: %j → %s', async (location, carried, status) => {
		const { result, answered } = await receive({
			body: samples.reviewJob,
			...carried,
			parameters: { requireSecret: true, secret: 'right', secretLocation: location },
		});
		expect(answered.status).toBe(status);
		expect(result.workflowData === undefined).toBe(status === 401);
		expect(JSON.stringify(answered.body ?? {})).not.toContain('right');
	});

	it.each([[[1, 2]], ['not json'], [{}], [undefined]])(
		'refuses the body %j with 400',
		async (body) => {
			const { result, answered } = await receive({ body });
			expect(answered.status).toBe(400);
			expect(result).toEqual({ noWebhookResponse: true });
		},
	);

	it('ignores a repeated delivery of the same id and remembers a bounded window', async () => {
		const staticData: IDataObject = {};
		const deliver = (id: number) =>
			receive(
				{
					body: { ...samples.reviewJob, job_id: id },
					parameters: { options: { dedupeWindow: 3 } },
				},
				staticData,
			);
		expect((await deliver(1)).result.workflowData).toBeDefined();
		expect((await deliver(1)).result).toEqual({
			webhookResponse: { received: true, duplicate: true },
		});
		for (const id of [2, 3, 4]) expect((await deliver(id)).result.workflowData).toBeDefined();
		expect(staticData.recentIds).toEqual(['reviewJob:2', 'reviewJob:3', 'reviewJob:4']);
		expect((await deliver(1)).result.workflowData).toBeDefined();
	});

	it('remembers every id even when n8n does not keep the static data written by a delivery', async () => {
		const staticData: IDataObject = {};
		const deliver = async (id: number) => {
			const received = await receive({ body: { ...samples.reviewJob, job_id: id } }, staticData);
			delete staticData.recentIds;
			return received.result;
		};
		expect((await deliver(7)).workflowData).toBeDefined();
		expect((await deliver(8)).workflowData).toBeDefined();
		expect(await deliver(8)).toEqual({ webhookResponse: { received: true, duplicate: true } });
		expect(await deliver(7)).toEqual({ webhookResponse: { received: true, duplicate: true } });
	});

	it('keeps the windows of two workflows apart', async () => {
		const first = await receive({ body: samples.socialScrape });
		const second = await receive({ body: samples.socialScrape });
		expect(first.result.workflowData).toBeDefined();
		expect(second.result.workflowData).toBeDefined();
	});

	it('lets repeated deliveries through when deduplication is off', async () => {
		const staticData: IDataObject = {};
		const options = { dedupe: false };
		await receive({ body: samples.productSearch, parameters: { options } }, staticData);
		const again = await receive(
			{ body: samples.productSearch, parameters: { options } },
			staticData,
		);
		expect(again.result.workflowData).toBeDefined();
	});
});
