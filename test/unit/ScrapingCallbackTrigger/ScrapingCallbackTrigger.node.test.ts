import { Readable } from 'node:stream';

import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { ScrapingCallbackTrigger } from '../../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';
import { payloadId, recognizePayload } from '../../../nodes/shared/incoming/callbackPayload';
import { LARGE_DELIVERY_LIMIT_MIB } from '../../../nodes/shared/incoming/trigger/options';
import { secretsMatch } from '../../../nodes/shared/secretsMatch';

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
	body?: unknown;
	query?: IDataObject;
	headers?: IDataObject;
	parameters?: IDataObject;
	/** The request as n8n leaves it when it did not read the body (Receive Large Deliveries). */
	stream?: Readable & { headers: IDataObject };
	/** The node's type version; 1 unless given. */
	typeVersion?: number;
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
		// As n8n gives it after parsing the body itself (no Receive Large Deliveries).
		getRequestObject: () =>
			request.stream ?? { body: request.body, headers: request.headers ?? {} },
		getWorkflowStaticData: () => staticData,
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: 'callback-trigger', typeVersion: request.typeVersion ?? 1 }),
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
			[
				{
					json: {
						kind: 'photoSearch',
						id: 'ph-1',
						outcome: 'completed',
						deliveryKey: expect.stringMatching(/^photoSearch:ph-1:[0-9a-f]{32}$/),
						recordCount: 1,
						payload: samples.photoSearch,
					},
				},
			],
		]);
	});

	it('splits the results into one item per record when asked', async () => {
		const { result } = await receive({
			body: { ...samples.reviewJob, reviews: [{ review_id: 'a' }, { review_id: 'b' }] },
			parameters: { options: { splitResults: true } },
		});
		expect(result.workflowData?.[0].map((item) => item.json)).toEqual([
			expect.objectContaining({
				kind: 'reviewJob',
				id: '41',
				outcome: 'completed',
				recordCount: 2,
				deliveryKey: expect.stringMatching(/^reviewJob:41:[0-9a-f]{32}$/),
				record: { review_id: 'a' },
			}),
			expect.objectContaining({
				kind: 'reviewJob',
				id: '41',
				outcome: 'completed',
				recordCount: 2,
				deliveryKey: expect.stringMatching(/^reviewJob:41:[0-9a-f]{32}$/),
				record: { review_id: 'b' },
			}),
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
		expect((staticData.recentDeliveries as IDataObject[]).map((entry) => entry.key)).toEqual([
			'reviewJob:2',
			'reviewJob:3',
			'reviewJob:4',
		]);
		expect((await deliver(1)).result.workflowData).toBeDefined();
	});

	it('remembers every id even when n8n does not keep the static data written by a delivery', async () => {
		const staticData: IDataObject = {};
		const deliver = async (id: number) => {
			const received = await receive({ body: { ...samples.reviewJob, job_id: id } }, staticData);
			delete staticData.recentDeliveries;
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

	it('starts the workflow again for a re-sync (same id, new content), marked as an update', async () => {
		const staticData: IDataObject = {};
		const job = { ...samples.reviewJob, job_id: 556, reviews: [{ id: 'a' }, { id: 'b' }] };
		const first = await receive({ body: job }, staticData);
		const retry = await receive({ body: { ...job } }, staticData);
		const resync = await receive(
			{ body: { ...job, reviews: [...job.reviews, { id: 'c' }] } },
			staticData,
		);
		expect(first.result.workflowData?.[0][0].json.redelivery).toBeUndefined();
		expect(retry.result).toEqual({ webhookResponse: { received: true, duplicate: true } });
		const update = resync.result.workflowData?.[0][0].json as IDataObject;
		expect(update.redelivery).toBe('update');
		expect(Date.parse(String(update.previousDeliveryAt))).toBeGreaterThan(0);
		expect((update.payload as IDataObject).reviews).toHaveLength(3);
	});

	it('gives every kind an outcome: invalid_url, failed, login_required → failed, completed', async () => {
		const outcomeOf = async (body: IDataObject) =>
			(await receive({ body })).result.workflowData?.[0][0].json.outcome;
		expect(
			await outcomeOf({ ...samples.reviewJob, crawl_status: 'invalid_url', reviews: [] }),
		).toBe('invalid_url');
		expect(await outcomeOf({ ...samples.reviewJob, crawl_status: 'complete' })).toBe('completed');
		expect(await outcomeOf({ ...samples.videoRequest, status: 'failed' })).toBe('failed');
		expect(await outcomeOf({ ...samples.videoRequest, status: 'login_required' })).toBe('failed');
		expect(await outcomeOf(samples.socialScrape)).toBe('completed');
	});

	it('with Only Completed Results, acknowledges an invalid_url job with 200 and starts nothing', async () => {
		const { result, answered } = await receive({
			body: { ...samples.reviewJob, crawl_status: 'invalid_url', reviews: [] },
			parameters: { options: { completedOnly: true } },
		});
		expect(answered.status).toBeUndefined();
		expect(result).toEqual({ webhookResponse: { received: true, ignored: 'invalid_url' } });
	});

	it('outputs a failed job as one item even when splitting results', async () => {
		const { result } = await receive({
			body: { ...samples.reviewJob, crawl_status: 'invalid_url', reviews: [] },
			parameters: { options: { splitResults: true } },
		});
		expect(result.workflowData?.[0]).toHaveLength(1);
		expect(result.workflowData?.[0][0].json.outcome).toBe('invalid_url');
	});

	it("parses a review job's meta_data JSON string into an object and keeps the string", async () => {
		const raw = '{"source":"maps","lang":"en"}';
		const { result } = await receive({
			body: { ...samples.reviewJob, meta_data: raw, reviews: [{ id: 'r', meta_data: '{"x":1}' }] },
		});
		const payload = result.workflowData?.[0][0].json.payload as IDataObject;
		expect(payload.meta_data).toEqual({ source: 'maps', lang: 'en' });
		expect(payload.meta_data_raw).toBe(raw);
		expect((payload.reviews as IDataObject[])[0]).toEqual({
			id: 'r',
			meta_data: { x: 1 },
			meta_data_raw: '{"x":1}',
		});
	});
});

describe('edges where a delivery could be lost or leak a secret', () => {
	const failedSocial = {
		request_id: 's-9',
		status: 'failed',
		credits_used: 0,
		request_metadata: { url: 'https://social.example.com/p/9', callback_url: 'x' },
		results: null,
		summary: null,
		pagination: null,
	};

	it.each([
		['a failed social scrape with null results', failedSocial, 'socialScrape'],
		[
			'a failed photo search with null results',
			{ ...failedSocial, request_metadata: { keyword: '#x' }, pagination: null },
			'photoSearch',
		],
		[
			'a failed product search',
			{ request_id: 'p-9', status: 'failed', results: null, summary: null, pagination: null },
			'productSearch',
		],
		[
			'a video status record in progress',
			{ ...samples.videoRequest, status: 'in_progress' },
			'videoRequest',
		],
	])('recognises %s from the keys it carries', (_label, payload, kind) => {
		expect(recognizePayload(payload as IDataObject)).toBe(kind);
	});

	it('lets a failed social scrape (results: null) through a Social-only kind filter', async () => {
		const { result } = await receive({
			body: failedSocial,
			parameters: { kinds: ['socialScrape'] },
		});
		expect(result.workflowData?.[0][0].json).toMatchObject({
			kind: 'socialScrape',
			outcome: 'failed',
		});
	});

	it('starts the workflow for a payload whose kind cannot be told, whatever the kind filter', async () => {
		const { result } = await receive({
			body: { request_id: 'odd-1', status: 'completed' },
			parameters: { kinds: ['reviewJob'] },
		});
		expect(result.workflowData?.[0][0].json).toMatchObject({ kind: 'unknown', id: 'odd-1' });
	});

	it('reads a status it does not know as pending, not completed', async () => {
		const { result } = await receive({ body: { ...samples.videoRequest, status: 'in_progress' } });
		expect(result.workflowData?.[0][0].json.outcome).toBe('pending');
		const ignored = await receive({
			body: { ...samples.videoRequest, request_id: 'v-2', status: 'queued_for_review' },
			parameters: { options: { completedOnly: true } },
		});
		expect(ignored.result).toEqual({ webhookResponse: { received: true, ignored: 'pending' } });
	});

	it('gives one item for a completed job with no new reviews when splitting results', async () => {
		const { result } = await receive({
			body: { ...samples.reviewJob, job_id: 77, reviews: [] },
			parameters: { options: { splitResults: true } },
		});
		expect(result.workflowData?.[0]).toHaveLength(1);
		const item = result.workflowData?.[0][0].json as IDataObject;
		expect(item).toMatchObject({
			kind: 'reviewJob',
			id: '77',
			outcome: 'completed',
			recordCount: 0,
		});
		expect(item.record).toBeUndefined();
	});

	it('keeps the secret of an echoed callback URL out of every item', async () => {
		const secret = 'trigger-secret-4242';
		const signature = 'a'.repeat(64);
		const { result } = await receive({
			body: {
				...samples.socialScrape,
				request_metadata: {
					url: 'https://social.example.com/p/1',
					callback_url: `https://n8n.example.com/webhook/x/callback?secret=${secret}`,
					get_comments: false,
				},
				results: [{ post_id: '1', callback: `https://n8n.example.com/r?signature=${signature}` }],
			},
			query: { secret },
			parameters: { requireSecret: true, secret },
		});
		const text = JSON.stringify(result.workflowData);
		expect(text).toContain('callback?secret=***');
		expect(text).toContain('r?signature=***');
		expect(text).not.toContain(secret);
		expect(text).not.toContain(signature);
	});

	it('gives the same delivery key to the same content, and another to new content', async () => {
		const keyOf = async (body: IDataObject) =>
			(await receive({ body, parameters: { options: { dedupe: false } } })).result
				.workflowData?.[0][0].json.deliveryKey;
		const first = await keyOf(samples.productSearch);
		expect(await keyOf({ ...samples.productSearch })).toBe(first);
		expect(await keyOf({ ...samples.productSearch, credits_used: 4 })).not.toBe(first);
	});
});

/** A request whose body n8n left unread, delivered in `chunks`. */
function unreadRequest(chunks: Array<string | Buffer>, headers: IDataObject = {}) {
	let consumed = 0;
	const stream = Readable.from(
		(function* () {
			for (const chunk of chunks) {
				consumed++;
				yield Buffer.from(chunk);
			}
		})(),
	) as Readable & { headers: IDataObject };
	stream.headers = { 'content-type': 'application/json', ...headers };
	return { stream, consumed: () => consumed };
}

describe('deliveries n8n left unread (Receive Large Deliveries)', () => {
	it('reads the body from the request stream, across chunks and with a byte order mark', async () => {
		const text = JSON.stringify(samples.reviewJob);
		const { stream } = unreadRequest(['\uFEFF', text.slice(0, 7), text.slice(7)]);
		const { result } = await receive({ stream });
		expect(result.webhookResponse).toEqual({ received: true });
		expect(result.workflowData?.[0][0].json).toMatchObject({ kind: 'reviewJob', id: '41' });
	});

	it.each([
		['its length declared', (length: number) => length],
		['no length declared', () => undefined],
		['a declared length shorter than the body', (length: number) => length - 9],
		['a declared length longer than the body', (length: number) => length + 9],
	])('reads the same body byte-split anywhere, with %s', async (_, declare) => {
		const text = 'Ünïcödé – “quotes” 日本語 🍕 "escaped" \\ \n';
		const delivery = { ...samples.reviewJob, reviews: [{ id: 'r1', review_text: text }] };
		const bytes = Buffer.from(`\uFEFF${JSON.stringify(delivery)}`);
		// Two bytes a chunk: the byte order mark and every character of 3 or 4 bytes are cut.
		const chunks = Array.from({ length: Math.ceil(bytes.length / 2) }, (_, index) =>
			bytes.subarray(index * 2, index * 2 + 2),
		);
		const length = declare(bytes.length);
		const headers = length === undefined ? {} : { 'content-length': String(length) };
		const { result } = await receive({
			stream: unreadRequest(chunks, headers).stream,
			parameters: { options: { dedupe: false } },
		});
		expect(result.workflowData?.[0][0].json.payload).toMatchObject({
			job_id: samples.reviewJob.job_id,
			reviews: [{ id: 'r1', review_text: text }],
		});
	});

	it('refuses with 413, before reading, a body whose declared length is over the limit', async () => {
		const declared = LARGE_DELIVERY_LIMIT_MIB * 1024 * 1024 + 1;
		const request = unreadRequest(['{}'], { 'content-length': String(declared) });
		const { result, answered } = await receive({ stream: request.stream });
		expect(answered.status).toBe(413);
		expect(result.workflowData).toBeUndefined();
		expect(request.consumed()).toBe(0);
	});

	it('refuses a compressed body with 415 and a body that is not JSON with 400', async () => {
		const gzip = await receive({
			stream: unreadRequest(['x'], { 'content-encoding': 'gzip' }).stream,
		});
		expect(gzip.answered.status).toBe(415);
		const broken = await receive({ stream: unreadRequest(['{"job_id": 4']).stream });
		expect(broken.answered.status).toBe(400);
		expect(broken.result.workflowData).toBeUndefined();
	});

	it('refuses with 400, starting nothing, a body whose sender went away mid-way', async () => {
		const stream = new Readable({
			read() {
				this.push(Buffer.from('{"job_id": 41, "reviews": ['));
				this.destroy(new Error('aborted'));
			},
		}) as Readable & { headers: IDataObject };
		stream.headers = { 'content-type': 'application/json' };
		const { result, answered } = await receive({ stream });
		expect(answered.status).toBe(400);
		expect(result.workflowData).toBeUndefined();
	});

	it('checks the secret before reading anything', async () => {
		const request = unreadRequest([JSON.stringify(samples.reviewJob)]);
		const { answered } = await receive({
			stream: request.stream,
			query: { secret: 'wrong' },
			parameters: { requireSecret: true, secret: 'right' },
		});
		expect(answered.status).toBe(401);
		expect(request.consumed()).toBe(0);
	});
});
