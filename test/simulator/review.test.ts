import type { Simulator } from '../../simulator/server';
import {
	BulkResponse,
	LocalListingAudit,
	ProfileAck,
	ReviewError,
	ReviewJobCallback,
} from '../../simulator/schemas';
import { http, type Receiver, startReceiver, startSimulator, tokenAuth } from './helpers';

let sim: Simulator;
let receiver: Receiver;

beforeAll(async () => {
	sim = await startSimulator();
	receiver = await startReceiver();
});
afterAll(async () => {
	await sim.stop();
	await receiver.stop();
});
beforeEach(() => {
	sim.reset();
	receiver.received.length = 0;
});

const add = (query: Record<string, string | number>) =>
	http('POST', `${sim.urls.baseUrl}/api/v2/profiles/add`, { headers: tokenAuth(sim), query });
const bulk = (body: unknown) =>
	http('POST', `${sim.urls.baseUrl}/api/v2/profiles/add_bulk`, { headers: tokenAuth(sim), body });

describe('POST /api/v2/profiles/add', () => {
	it.each([
		['url', { url: 'https://maps.example/place/1' }],
		['query', { query: 'Blue Fern Cafe Springfield' }],
		['place_id', { place_id: 'ChIJ123' }],
	])('queues a job identified by %s', async (_field, query) => {
		const response = await add(query);
		expect(response.status).toBe(200);
		expect(ProfileAck.parse(response.body)).toEqual({
			success: true,
			job_id: 10001,
			status: 200,
			message: 'Profile added to queue',
		});
		expect(sim.counts().jobs).toBe(1);
	});

	it.each([
		['no url, query or place_id', { blocks: 5 }, /at least one of url, query, place_id/],
		[
			'from_date in another format',
			{ url: 'u', from_date: '01/02/2024' },
			/^from_date: .*YYYY-MM-DD/,
		],
		[
			'from_date that is not a real date',
			{ url: 'u', from_date: '2023-02-29' },
			/^from_date: .*real date/,
		],
		[
			'external_identifier of 256 characters',
			{ url: 'u', external_identifier: 'x'.repeat(256) },
			/^external_identifier: .*255/,
		],
		[
			'blocks that is not an integer',
			{ url: 'u', blocks: '2.5' },
			/^blocks: must be a positive integer/,
		],
		['diff that is not an integer', { url: 'u', diff: 'abc' }, /^diff: must be a positive integer/],
		[
			'callback that is not a URL',
			{ url: 'u', callback: 'not a url' },
			/^callback: must be an http\(s\) URL/,
		],
		['an unknown parameter', { url: 'u', limit: 3 }, /unknown field\(s\) limit/],
	])('refuses %s with 400 naming the field', async (_name, query, message) => {
		const response = await add(query as Record<string, string | number>);
		expect(response.status).toBe(400);
		const body = ReviewError.parse(response.body);
		expect(body.status).toBe(400);
		expect(body.message).toMatch(message);
		expect(sim.counts().jobs).toBe(0);
	});

	it('accepts an external_identifier of exactly 255 characters and a real leap day', async () => {
		const response = await add({
			url: 'u',
			external_identifier: 'x'.repeat(255),
			from_date: '2024-02-29',
		});
		expect(response.status).toBe(200);
	});

	it('calls back with the review job payload once the job completes', async () => {
		const response = await add({
			url: 'https://maps.example/place/7',
			blocks: 4,
			callback: `${receiver.url}?secret=s1`,
			external_identifier: 'crm-42',
		});
		const [delivery] = await sim.waitForDeliveries(1, 2000);
		expect(delivery).toMatchObject({
			kind: 'review-job',
			state: 'delivered',
			attempts: 1,
			ref: response.body.job_id,
		});
		expect(receiver.received[0].path).toBe('/hook?secret=s1');
		const payload = ReviewJobCallback.parse(receiver.received[0].body);
		expect(payload).toMatchObject({
			success: true,
			status: 200,
			job_id: response.body.job_id,
			crawl_status: 'complete',
			external_identifier: 'crm-42',
			source_url: 'https://maps.example/place/7',
			source_name: 'maps',
			review_count: 4,
			result_count: 4,
			credits_used: 4,
			percentage_complete: 100,
			blocks: 4,
			from_date: null,
		});
		expect(typeof JSON.parse(payload.meta_data)).toBe('object');
		expect(payload.reviews).toHaveLength(4);
		expect(Object.keys(payload.reviews[0]).sort()).toEqual(
			[
				'id',
				'name',
				'date',
				'rating_value',
				'review_text',
				'url',
				'profile_picture',
				'location',
				'review_title',
				'verified_order',
				'language_code',
				'reviewer_title',
				'meta_data',
				'response',
			].sort(),
		);
		expect(typeof JSON.parse(payload.reviews[0].meta_data)).toBe('object');
	});

	it('ends a job whose URL contains "invalid-url" as invalid_url, with no reviews, and posts it', async () => {
		const response = await add({
			url: 'https://maps.example/invalid-url/1',
			callback: receiver.url,
		});
		const [delivery] = await sim.waitForDeliveries(1, 2000);
		expect(delivery).toMatchObject({ state: 'delivered', ref: response.body.job_id });
		const payload = ReviewJobCallback.parse(receiver.received[0].body);
		expect(payload).toMatchObject({
			job_id: response.body.job_id,
			crawl_status: 'invalid_url',
			reviews: [],
			review_count: 0,
			credits_used: 0,
		});
	});

	describe("a job in maintenance (REAL-SERVICE.md, a job's life)", () => {
		// The service's retries (2, 3, 5, 12, 24 and 72 hours after maintenance began), here in ms.
		beforeEach(() => sim.configure({ maintenanceRetryDelaysMs: [20, 30, 50, 120, 240, 720] }));

		const jobState = (jobId: number) => sim.state.reviewJobs.get(jobId);
		const waitUntil = async (done: () => boolean, timeoutMs: number) => {
			const deadline = Date.now() + timeoutMs;
			while (!done()) {
				if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
		};

		it('is crawled again at each retry and completes at the one its URL names, with its callback', async () => {
			const response = await add({
				url: 'https://maps.example/maintenance-3/1',
				callback: receiver.url,
			});
			const jobId = response.body.job_id as number;
			await waitUntil(() => jobState(jobId)?.state === 'maintenance', 2000);
			expect(receiver.received).toHaveLength(0);
			const [delivery] = await sim.waitForDeliveries(1, 2000);
			expect(delivery).toMatchObject({ state: 'delivered', ref: jobId });
			expect(jobState(jobId)).toMatchObject({ state: 'complete', maintenanceRetries: 3 });
			expect(ReviewJobCallback.parse(receiver.received[0].body).crawl_status).toBe('complete');
		});

		it('ends failed after its last retry, and nothing calls back', async () => {
			const response = await add({
				url: 'https://maps.example/maintenance-never/1',
				callback: receiver.url,
			});
			const jobId = response.body.job_id as number;
			await waitUntil(() => jobState(jobId)?.state === 'failed', 3000);
			expect(jobState(jobId)?.maintenanceRetries).toBe(6);
			await new Promise((resolve) => setTimeout(resolve, 100));
			expect(receiver.received).toHaveLength(0);
		});
	});

	it('re-syncs a finished job: the same job_id posted again with one review more', async () => {
		const response = await add({
			url: 'https://maps.example/place/9',
			blocks: 2,
			callback: receiver.url,
		});
		await sim.waitForDeliveries(1, 2000);
		const resynced = await http(
			'POST',
			`${sim.urls.controlUrl}/review-jobs/${response.body.job_id}/resync`,
			{ body: {} },
		);
		expect(resynced.status).toBe(200);
		await sim.waitForDeliveries(2, 2000);
		const [first, second] = receiver.received.map((r) => ReviewJobCallback.parse(r.body));
		expect(second.job_id).toBe(first.job_id);
		expect(second.reviews).toHaveLength(3);
		expect(second.reviews.slice(1)).toEqual(first.reviews);
		expect(new Set(second.reviews.map((review) => review.id)).size).toBe(3);
		expect(resynced.body).toEqual(second);

		const unknown = await http('POST', `${sim.urls.controlUrl}/review-jobs/999999/resync`, {
			body: {},
		});
		expect(unknown.status).toBe(409);
	});

	it('keeps external_identifier (null) in the payload, honours from_date and diff', async () => {
		await add({ query: 'cafe', blocks: 50, from_date: '2025-05-20', callback: receiver.url });
		await add({ place_id: 'p1', blocks: 10, diff: 10001, callback: receiver.url });
		await sim.waitForDeliveries(2, 2000);
		const payloads = receiver.received.map((r) => ReviewJobCallback.parse(r.body));
		const byQuery = payloads.find((p) => JSON.parse(p.meta_data).query === 'cafe')!;
		expect(byQuery.external_identifier).toBeNull();
		expect(byQuery.source_url).toBeNull();
		expect(byQuery.reviews.length).toBeGreaterThan(0);
		expect(byQuery.reviews.length).toBeLessThan(50);
		expect(byQuery.reviews.every((r) => r.date >= '2025-05-20')).toBe(true);
		const byDiff = payloads.find((p) => p.place_id === 'p1')!;
		expect(byDiff.review_count).toBe(5);
	});
});

describe('POST /api/v2/profiles/add_bulk', () => {
	it('answers one element per input, echoing its keys; invalid elements create nothing', async () => {
		const input = [
			{ url: 'https://maps.example/a', blocks: 10 },
			{ query: 'cafe', blocks: '20', external_identifier: 'row-2' },
			{ blocks: 3 },
			{ place_id: 'p', from_date: '2024-13-01' },
			'not an object',
		];
		const response = await bulk(input);
		expect(response.status).toBe(200);
		const results = BulkResponse.parse(response.body);
		expect(results).toHaveLength(5);
		expect(results[0]).toEqual({
			...(input[0] as object),
			success: true,
			job_id: 10001,
			status: 200,
			message: 'Profile added to queue',
		});
		expect(results[1]).toMatchObject({
			blocks: '20',
			external_identifier: 'row-2',
			success: true,
			job_id: 10002,
		});
		expect(results[2]).toMatchObject({ blocks: 3, success: false, status: 400, job_id: null });
		expect(results[2].message).toMatch(/at least one of url, query, place_id/);
		expect(results[3]).toMatchObject({ success: false, status: 400, job_id: null });
		expect(results[3].message).toMatch(/^from_date/);
		expect(results[4]).toMatchObject({ success: false, status: 400, job_id: null });
		expect(sim.counts()).toMatchObject({ jobs: 2, bulkJobs: 2 });
	});

	it.each([[{ url: 'u' }], ['[]x'], [null]])(
		'refuses a body that is not an array (%p) with 400',
		async (body) => {
			const response = await bulk(body);
			expect(response.status).toBe(400);
			expect(ReviewError.parse(response.body).message).toMatch(/array/);
			expect(sim.counts().jobs).toBe(0);
		},
	);
});

describe('respond jobs and listing audit', () => {
	it('lists respondJobCount complete jobs and reads one', async () => {
		const list = await http('GET', `${sim.urls.baseUrl}/api/v2/responds/jobs`, {
			headers: tokenAuth(sim),
		});
		expect(list.body).toHaveLength(5);
		expect(list.body.every((job: { status: string }) => job.status === 'complete')).toBe(true);
		const one = await http(
			'GET',
			`${sim.urls.baseUrl}/api/v2/responds/jobs/${list.body[2].job_id}`,
			{
				headers: tokenAuth(sim),
			},
		);
		expect(one.body).toEqual(list.body[2]);
		const text = await http('GET', `${sim.urls.baseUrl}/api/v2/responds/jobs/abc`, {
			headers: tokenAuth(sim),
		});
		expect(text.status).toBe(400);
		const missing = await http('GET', `${sim.urls.baseUrl}/api/v2/responds/jobs/99`, {
			headers: tokenAuth(sim),
		});
		expect(missing.status).toBe(404);
		expect(missing.body).toEqual({
			success: false,
			status: 404,
			message: "This job ID doesn't exist, please create it",
		});
	});

	it('follows respondJobCount from configure()', async () => {
		sim.configure({ respondJobCount: 2 });
		const list = await http('GET', `${sim.urls.baseUrl}/api/v2/responds/jobs`, {
			headers: tokenAuth(sim),
		});
		expect(list.body).toHaveLength(2);
	});

	it('audits any known job with sources whose field names vary', async () => {
		const created = await add({ url: 'https://maps.example/x' });
		for (const jobId of [7001, created.body.job_id]) {
			const response = await http('GET', `${sim.urls.baseUrl}/api/v2/local_naps/local_nap`, {
				headers: tokenAuth(sim),
				query: { job_id: jobId },
			});
			expect(response.status).toBe(200);
			const audit = LocalListingAudit.parse(response.body);
			const sources = audit.local_nap_sources;
			expect(sources.some((s) => 'company_name' in s)).toBe(true);
			expect(sources.some((s) => 'business_name' in s)).toBe(true);
			expect(sources.some((s) => 'phone' in s)).toBe(true);
			expect(sources.some((s) => 'phone_number' in s)).toBe(true);
			expect(sources.some((s) => 'review_count' in s)).toBe(true);
			expect(sources.some((s) => 'rating_count' in s)).toBe(true);
			expect(sources.some((s) => s.rating_distribution === null)).toBe(true);
			const counts = sources.flatMap((s) => Object.values(s.rating_distribution ?? {}));
			expect(counts.some((c) => typeof c === 'number')).toBe(true);
			expect(counts.some((c) => typeof c === 'string')).toBe(true);
			expect(sources.some((s) => !('address' in s))).toBe(true);
			expect(sources.some((s) => !('url' in s))).toBe(true);
		}
	});

	it.each([
		[{}, 400, 'job_id is required'],
		[{ job_id: '12.5' }, 400, 'job_id must be an integer'],
		[{ job_id: 'abc' }, 400, 'job_id must be an integer'],
		[{ job_id: 424242 }, 404, 'Job not found'],
	])('audit with query %p answers %i', async (query, status, message) => {
		const response = await http('GET', `${sim.urls.baseUrl}/api/v2/local_naps/local_nap`, {
			headers: tokenAuth(sim),
			query,
		});
		expect(response.status).toBe(status);
		expect(response.body).toEqual({ success: false, status, message });
	});
});

describe('a diff naming a job the service does not know', () => {
	it('is refused by add (in HTTP 200 at the production settings), and per element by add_bulk, creating nothing for it', async () => {
		const refused = await add({ url: 'https://maps.example/p/1', diff: 999 });
		expect(refused.status).toBe(sim.config.reviewErrors === 'http200' ? 200 : 404);
		expect(refused.body).toEqual({
			success: false,
			status: 404,
			message: 'No diff job exists with id 999',
		});
		const first = await add({ url: 'https://maps.example/p/1' });
		const jobId = (first.body as { job_id: number }).job_id;
		const answer = await bulk([
			{ url: 'https://maps.example/p/2', diff: jobId },
			{ url: 'https://maps.example/p/3', diff: 999 },
		]);
		expect(answer.body).toEqual([
			expect.objectContaining({ success: true, diff: jobId }),
			expect.objectContaining({ success: false, status: 404, job_id: null }),
		]);
		expect(sim.counts().jobs).toBe(2);
	});
});
