import { Readable } from 'node:stream';

import type { IDataObject } from 'n8n-workflow';

import { LARGE_DELIVERY_LIMIT_MIB } from '../../../nodes/shared/incoming/trigger/options';
import { receive, samples } from './fakeWebhook';

const DUPLICATE = { webhookResponse: { received: true, duplicate: true } };
const invalidUrlJob = { ...samples.reviewJob, crawl_status: 'invalid_url', reviews: [] };
const split = { options: { splitResults: true } };
const failedSocial = { ...samples.socialScrape, status: 'failed', results: null };

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
		const reviews = [{ review_id: 'a' }, { review_id: 'b' }];
		const { items } = await receive({ body: { ...samples.reviewJob, reviews }, parameters: split });
		expect(items).toEqual(
			reviews.map((record) =>
				expect.objectContaining({
					kind: 'reviewJob',
					id: '41',
					outcome: 'completed',
					recordCount: 2,
					deliveryKey: expect.stringMatching(/^reviewJob:41:[0-9a-f]{32}$/),
					record,
				}),
			),
		);
	});

	it('gives one item, with no record, for a failed job or a job with no reviews when splitting', async () => {
		const failed = await receive({ body: invalidUrlJob, parameters: split });
		expect(failed.items).toEqual([expect.objectContaining({ outcome: 'invalid_url' })]);
		const empty = await receive({
			body: { ...samples.reviewJob, job_id: 77, reviews: [] },
			parameters: split,
		});
		expect(empty.items).toEqual([
			expect.objectContaining({
				kind: 'reviewJob',
				id: '77',
				outcome: 'completed',
				recordCount: 0,
			}),
		]);
		expect(empty.items[0].record).toBeUndefined();
	});

	it.each([
		[['reviewJob', 'photoSearch'], samples.socialScrape, { ignored: 'socialScrape' }],
		[['socialScrape'], failedSocial, { kind: 'socialScrape', outcome: 'failed' }],
		[['reviewJob'], { request_id: 'odd-1', status: 'completed' }, { kind: 'unknown', id: 'odd-1' }],
	])('with kinds %j, reads %j as %j', async (kinds, body, expected) => {
		const { result, items } = await receive({ body, parameters: { kinds } });
		if ('ignored' in expected) {
			expect(result).toEqual({ webhookResponse: { received: true, ...expected } });
		} else {
			expect(items).toEqual([expect.objectContaining(expected)]);
		}
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
		const deliver = async (id: number) =>
			(
				await receive(
					{
						body: { ...samples.reviewJob, job_id: id },
						parameters: { options: { dedupeWindow: 3 } },
					},
					staticData,
				)
			).result;
		expect((await deliver(1)).workflowData).toBeDefined();
		expect(await deliver(1)).toEqual(DUPLICATE);
		for (const id of [2, 3, 4]) expect((await deliver(id)).workflowData).toBeDefined();
		expect((staticData.recentDeliveries as IDataObject[]).map(({ key }) => key)).toEqual([
			'reviewJob:2',
			'reviewJob:3',
			'reviewJob:4',
		]);
		expect((await deliver(1)).workflowData).toBeDefined();
	});

	it('remembers every id even when n8n does not keep the static data written by a delivery', async () => {
		const staticData: IDataObject = {};
		const deliver = async (id: number) => {
			const { result } = await receive({ body: { ...samples.reviewJob, job_id: id } }, staticData);
			delete staticData.recentDeliveries;
			return result;
		};
		expect((await deliver(7)).workflowData).toBeDefined();
		expect((await deliver(8)).workflowData).toBeDefined();
		expect(await deliver(8)).toEqual(DUPLICATE);
		expect(await deliver(7)).toEqual(DUPLICATE);
	});

	it('keeps the windows of two workflows apart, and lets repeats through when deduplication is off', async () => {
		expect((await receive({ body: samples.socialScrape })).items).toHaveLength(1);
		expect((await receive({ body: samples.socialScrape })).items).toHaveLength(1);
		const staticData: IDataObject = {};
		const request = { body: samples.productSearch, parameters: { options: { dedupe: false } } };
		await receive(request, staticData);
		expect((await receive(request, staticData)).items).toHaveLength(1);
	});

	it.each([
		[invalidUrlJob, 'invalid_url'],
		[{ ...samples.videoRequest, status: 'queued_for_review' }, 'pending'],
	])(
		'with Only Completed Results, acknowledges %j with 200 and starts nothing',
		async (body, ignored) => {
			const { result, answered } = await receive({
				body,
				parameters: { options: { completedOnly: true } },
			});
			expect(answered.status).toBeUndefined();
			expect(result).toEqual({ webhookResponse: { received: true, ignored } });
		},
	);

	it("parses a review job's meta_data JSON string into an object and keeps the string", async () => {
		const raw = '{"source":"maps","lang":"en"}';
		const { items } = await receive({
			body: { ...samples.reviewJob, meta_data: raw, reviews: [{ id: 'r', meta_data: '{"x":1}' }] },
		});
		const payload = items[0].payload as IDataObject;
		expect(payload.meta_data).toEqual({ source: 'maps', lang: 'en' });
		expect(payload.meta_data_raw).toBe(raw);
		expect((payload.reviews as IDataObject[])[0]).toEqual({
			id: 'r',
			meta_data: { x: 1 },
			meta_data_raw: '{"x":1}',
		});
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
			(await receive({ body, parameters: { options: { dedupe: false } } })).items[0].deliveryKey;
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
		const { result, items } = await receive({ stream });
		expect(result.webhookResponse).toEqual({ received: true });
		expect(items[0]).toMatchObject({ kind: 'reviewJob', id: '41' });
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
		const { items } = await receive({
			stream: unreadRequest(chunks, headers).stream,
			parameters: { options: { dedupe: false } },
		});
		expect(items[0].payload).toMatchObject({
			job_id: samples.reviewJob.job_id,
			reviews: [{ id: 'r1', review_text: text }],
		});
	});

	it.each([
		[
			'413, before reading, a body declared over the limit',
			['{}'],
			{ 'content-length': String(LARGE_DELIVERY_LIMIT_MIB * 1024 * 1024 + 1) },
			{},
			413,
		],
		['415 a compressed body', ['x'], { 'content-encoding': 'gzip' }, {}, 415],
		['400 a body that is not JSON', ['{"job_id": 4'], {}, {}, 400],
		[
			'401, before reading, a delivery without the secret',
			[JSON.stringify(samples.reviewJob)],
			{},
			{ query: { secret: 'wrong' }, parameters: { requireSecret: true, secret: 'right' } },
			401,
		],
	])('refuses with %s', async (_name, chunks, headers, request, status) => {
		const unread = unreadRequest(chunks, headers);
		const { result, answered } = await receive({ stream: unread.stream, ...request });
		expect(answered.status).toBe(status);
		expect(result.workflowData).toBeUndefined();
		if (status !== 400) expect(unread.consumed()).toBe(0);
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
});
