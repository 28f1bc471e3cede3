import {
	BulkResponse,
	LocalListingAudit,
	ProfileAck,
	ReviewError,
	ReviewJobCallback,
} from '../../simulator/schemas';
import { eventually, sleep, useSimulator } from './helpers';

const suite = useSimulator();
const add = (query: Record<string, string | number>) =>
	suite.call('POST review /api/v2/profiles/add', { query });
const bulk = (body: unknown) => suite.call('POST review /api/v2/profiles/add_bulk', { body });
const callbacks = () => suite.receiver.received.map(({ body }) => ReviewJobCallback.parse(body));

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
		expect(suite.sim.counts().jobs).toBe(1);
	});

	it.each([
		[{ blocks: 5 }, /at least one of url, query, place_id/],
		[{ url: 'u', from_date: '01/02/2024' }, /^from_date: .*YYYY-MM-DD/],
		[{ url: 'u', from_date: '2023-02-29' }, /^from_date: .*real date/],
		[{ url: 'u', external_identifier: 'x'.repeat(256) }, /^external_identifier: .*255/],
		[{ url: 'u', blocks: '2.5' }, /^blocks: must be a positive integer/],
		[{ url: 'u', diff: 'abc' }, /^diff: must be a positive integer/],
		[{ url: 'u', callback: 'not a url' }, /^callback: must be an http\(s\) URL/],
		[{ url: 'u', limit: 3 }, /unknown field\(s\) limit/],
	])('refuses %j with 400 naming the field', async (query, message) => {
		const response = await add(query as Record<string, string | number>);
		expect(response.status).toBe(400);
		const body = ReviewError.parse(response.body);
		expect(body.status).toBe(400);
		expect(body.message).toMatch(message);
		expect(suite.sim.counts().jobs).toBe(0);
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
			callback: `${suite.receiver.url}?secret=s1`,
			external_identifier: 'crm-42',
		});
		const [delivery] = await suite.sim.waitForDeliveries(1, 2000);
		expect(delivery).toMatchObject({
			kind: 'reviewJob',
			state: 'delivered',
			attempts: 1,
			ref: response.body.job_id,
		});
		expect(suite.receiver.received[0].path).toBe('/hook?secret=s1');
		const [payload] = callbacks();
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
			'date id language_code location meta_data name profile_picture rating_value response review_text review_title reviewer_title url verified_order'.split(
				' ',
			),
		);
		expect(typeof JSON.parse(payload.reviews[0].meta_data)).toBe('object');
	});

	it('ends a job whose URL contains "invalid-url" as invalid_url, with no reviews, and posts it', async () => {
		const response = await add({
			url: 'https://maps.example/invalid-url/1',
			callback: suite.receiver.url,
		});
		const [delivery] = await suite.sim.waitForDeliveries(1, 2000);
		expect(delivery).toMatchObject({ state: 'delivered', ref: response.body.job_id });
		expect(callbacks()[0]).toMatchObject({
			job_id: response.body.job_id,
			crawl_status: 'invalid_url',
			reviews: [],
			review_count: 0,
			credits_used: 0,
		});
	});

	describe('a job in maintenance (service-facts.md, Review job states)', () => {
		// The service's retries (2, 3, 5, 12, 24 and 72 hours after maintenance began), here in ms.
		beforeEach(() =>
			suite.sim.configure({ maintenanceRetryDelaysMs: [20, 30, 50, 120, 240, 720] }),
		);

		const jobIn = async (url: string, state: string, timeoutMs: number) => {
			const jobId = (await add({ url, callback: suite.receiver.url })).body.job_id as number;
			await eventually(() => suite.sim.state.work.reviewJob.get(jobId)?.state === state, timeoutMs);
			return { jobId, job: () => suite.sim.state.work.reviewJob.get(jobId) };
		};

		it('is crawled again at each retry and completes at the one its URL names, with its callback', async () => {
			const { jobId, job } = await jobIn(
				'https://maps.example/maintenance-3/1',
				'maintenance',
				2000,
			);
			expect(suite.receiver.received).toHaveLength(0);
			const [delivery] = await suite.sim.waitForDeliveries(1, 2000);
			expect(delivery).toMatchObject({ state: 'delivered', ref: jobId });
			expect(job()).toMatchObject({ state: 'complete', maintenanceRetries: 3 });
			expect(callbacks()[0].crawl_status).toBe('complete');
		});

		it('ends failed after its last retry, and nothing calls back', async () => {
			const { job } = await jobIn('https://maps.example/maintenance-never/1', 'failed', 3000);
			expect(job()?.maintenanceRetries).toBe(6);
			await sleep(100);
			expect(suite.receiver.received).toHaveLength(0);
		});
	});

	it('re-syncs a finished job: the same job_id posted again with one review more', async () => {
		const response = await add({
			url: 'https://maps.example/place/9',
			blocks: 2,
			callback: suite.receiver.url,
		});
		await suite.sim.waitForDeliveries(1, 2000);
		const resync = (jobId: number) =>
			suite.call(`POST control /review-jobs/${jobId}/resync`, { body: {} });
		const resynced = await resync(response.body.job_id);
		expect(resynced.status).toBe(200);
		await suite.sim.waitForDeliveries(2, 2000);
		const [first, second] = callbacks();
		expect(second.job_id).toBe(first.job_id);
		expect(second.reviews).toHaveLength(3);
		expect(second.reviews.slice(1)).toEqual(first.reviews);
		expect(new Set(second.reviews.map((review) => review.id)).size).toBe(3);
		expect(resynced.body).toEqual(second);
		expect((await resync(999999)).status).toBe(409);
	});

	it('keeps external_identifier (null) in the payload, honours from_date and diff', async () => {
		await add({ query: 'cafe', blocks: 50, from_date: '2025-05-20', callback: suite.receiver.url });
		await add({ place_id: 'p1', blocks: 10, diff: 10001, callback: suite.receiver.url });
		await suite.sim.waitForDeliveries(2, 2000);
		const payloads = callbacks();
		const byQuery = payloads.find((p) => JSON.parse(p.meta_data).query === 'cafe')!;
		expect(byQuery.external_identifier).toBeNull();
		expect(byQuery.source_url).toBeNull();
		expect(byQuery.reviews.length).toBeGreaterThan(0);
		expect(byQuery.reviews.length).toBeLessThan(50);
		expect(byQuery.reviews.every((r) => r.date >= '2025-05-20')).toBe(true);
		expect(payloads.find((p) => p.place_id === 'p1')!.review_count).toBe(5);
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
		const refused = { success: false, status: 400, job_id: null };
		expect(BulkResponse.parse(response.body)).toEqual([
			{
				...(input[0] as object),
				success: true,
				job_id: 10001,
				status: 200,
				message: 'Profile added to queue',
			},
			expect.objectContaining({
				blocks: '20',
				external_identifier: 'row-2',
				success: true,
				job_id: 10002,
			}),
			expect.objectContaining({
				blocks: 3,
				...refused,
				message: expect.stringMatching(/at least one of url, query, place_id/),
			}),
			expect.objectContaining({ ...refused, message: expect.stringMatching(/^from_date/) }),
			expect.objectContaining(refused),
		]);
		expect(suite.sim.counts()).toMatchObject({ jobs: 2, bulkJobs: 2 });
	});

	it.each([[{ url: 'u' }], ['[]x'], [null]])(
		'refuses a body that is not an array (%p) with 400',
		async (body) => {
			const response = await bulk(body);
			expect(response.status).toBe(400);
			expect(ReviewError.parse(response.body).message).toMatch(/array/);
			expect(suite.sim.counts().jobs).toBe(0);
		},
	);
});

describe('respond jobs and listing audit', () => {
	const respondJob = (id: string | number) => suite.call(`GET review /api/v2/responds/jobs/${id}`);

	it('lists respondJobCount complete jobs and reads one', async () => {
		const list = await suite.call('GET review /api/v2/responds/jobs');
		expect(list.body).toHaveLength(5);
		expect(list.body.every((job: { status: string }) => job.status === 'complete')).toBe(true);
		expect((await respondJob(list.body[2].job_id)).body).toEqual(list.body[2]);
		expect((await respondJob('abc')).status).toBe(400);
		const missing = await respondJob(99);
		expect(missing.status).toBe(404);
		expect(missing.body).toEqual({
			success: false,
			status: 404,
			message: "This job ID doesn't exist, please create it",
		});
		suite.sim.configure({ respondJobCount: 2 });
		expect((await suite.call('GET review /api/v2/responds/jobs')).body).toHaveLength(2);
	});

	const audit = (query: Record<string, string | number>) =>
		suite.call('GET review /api/v2/local_naps/local_nap', { query });

	it('audits any known job with sources whose field names vary', async () => {
		const created = await add({ url: 'https://maps.example/x' });
		for (const jobId of [7001, created.body.job_id]) {
			const response = await audit({ job_id: jobId });
			expect(response.status).toBe(200);
			const sources = LocalListingAudit.parse(response.body).local_nap_sources;
			for (const key of [
				'company_name',
				'business_name',
				'phone',
				'phone_number',
				'review_count',
				'rating_count',
			]) {
				expect(sources.some((s) => key in s)).toBe(true);
			}
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
		const response = await audit(query);
		expect(response.status).toBe(status);
		expect(response.body).toEqual({ success: false, status, message });
	});
});

describe('a diff naming a job the service does not know', () => {
	it('is refused by add (in HTTP 200 at the production settings), and per element by add_bulk, creating nothing for it', async () => {
		const refused = await add({ url: 'https://maps.example/p/1', diff: 999 });
		expect(refused.status).toBe(suite.sim.config.reviewErrors === 'http200' ? 200 : 404);
		expect(refused.body).toEqual({
			success: false,
			status: 404,
			message: 'No diff job exists with id 999',
		});
		const jobId = (await add({ url: 'https://maps.example/p/1' })).body.job_id;
		const answer = await bulk([
			{ url: 'https://maps.example/p/2', diff: jobId },
			{ url: 'https://maps.example/p/3', diff: 999 },
		]);
		expect(answer.body).toEqual([
			expect.objectContaining({ success: true, diff: jobId }),
			expect.objectContaining({ success: false, status: 404, job_id: null }),
		]);
		expect(suite.sim.counts().jobs).toBe(2);
	});
});
