import type { Simulator } from '../../simulator/server';
import {
	PhotoEnvelope,
	PhotoStatusRecord,
	SchedulingError,
	SocialEnvelope,
	SocialStatusRecord,
	SubmitAck,
	VideoStatusRecord,
} from '../../simulator/schemas';
import { eventually, http, keyAuth, type Receiver, startReceiver, startSimulator } from './helpers';

let sim: Simulator;
let receiver: Receiver;

beforeAll(async () => {
	sim = await startSimulator({ completionDelayMs: 120 });
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

const photoSearch = (body: Record<string, unknown>) =>
	http('POST', `${sim.urls.photoScraperUrl}/v1/search`, { headers: keyAuth(sim), body });
const photoResults = (id: string, query: Record<string, number | string> = {}) =>
	http('GET', `${sim.urls.photoScraperUrl}/v1/search/${id}`, { headers: keyAuth(sim), query });
const socialScrape = (body: Record<string, unknown>) =>
	http('POST', `${sim.urls.socialScraperUrl}/v1/scrape`, { headers: keyAuth(sim), body });
const status = async (baseUrl: string, id: string) =>
	(await http('GET', `${baseUrl}/v1/requests/${id}`, { headers: keyAuth(sim) })).body;

describe('photo-sharing scraper', () => {
	it('goes created → completed and calls back with every post', async () => {
		sim.configure({ completionDelayMs: 400 });
		const submitted = await photoSearch({
			callback_url: receiver.url,
			keyword: '#sunset',
			external_identifier: 'ext-1',
		});
		expect(submitted.status).toBe(200);
		const ack = SubmitAck.parse(submitted.body);
		const first = PhotoStatusRecord.parse(await status(sim.urls.photoScraperUrl, ack.request_id));
		expect(first).toMatchObject({
			status: 'created',
			credits_used: 0,
			request_metadata: {
				keyword: '#sunset',
				callback_url: receiver.url,
				external_identifier: 'ext-1',
			},
		});

		const early = PhotoEnvelope.parse((await photoResults(ack.request_id)).body);
		expect(early.status).toBe('created');
		expect(early.results).toEqual([]);
		expect(early.pagination.total).toBe(0);

		const [delivery] = await sim.waitForDeliveries(1, 2000);
		expect(delivery).toMatchObject({
			kind: 'photo-search',
			state: 'delivered',
			ref: ack.request_id,
		});
		const payload = PhotoEnvelope.parse(receiver.received[0].body);
		expect(payload.status).toBe('completed');
		expect(payload.request_metadata.external_identifier).toBe('ext-1');
		expect(payload.results).toHaveLength(120);
		expect(payload.pagination).toEqual({ total: 120, page: 1, per_page: 120, total_pages: 1 });
		expect(payload.credits_used).toBe(120);
		expect(payload.summary.total_posts).toBe(120);
		expect(payload.summary.unique_user_count).toBe(
			new Set(payload.results.map((p) => p.author.id)).size,
		);
		expect(payload.summary.unique_user_count).toBeLessThan(120);
		expect(payload.results.every((p) => p.hashtags.includes('sunset'))).toBe(true);

		const done = PhotoStatusRecord.parse(await status(sim.urls.photoScraperUrl, ack.request_id));
		expect(done.status).toBe('completed');
		expect(done.credits_used).toBe(120);
		expect(Date.parse(done.updated_at)).toBeGreaterThan(Date.parse(done.created_at));
	});

	it('passes through in_progress halfway', async () => {
		sim.configure({ completionDelayMs: 400 });
		const ack = SubmitAck.parse(
			(await photoSearch({ callback_url: receiver.url, keyword: 'cats' })).body,
		);
		const record = sim.state.photoRequests.get(ack.request_id)!;
		await eventually(() => record.status === 'in_progress', 1000);
		expect(
			PhotoStatusRecord.parse(await status(sim.urls.photoScraperUrl, ack.request_id)).status,
		).toBe('in_progress');
	});

	it('pages results exactly, default per_page 10, at most 100', async () => {
		const ack = SubmitAck.parse(
			(await photoSearch({ callback_url: receiver.url, keyword: 'food' })).body,
		);
		await sim.waitForDeliveries(1, 2000);
		const pages = await Promise.all(
			[1, 2, 3, 4].map((page) => photoResults(ack.request_id, { page, per_page: 50 })),
		);
		const bodies = pages.map((p) => PhotoEnvelope.parse(p.body));
		expect(bodies.map((b) => b.results.length)).toEqual([50, 50, 20, 0]);
		expect(bodies[0].pagination).toEqual({ total: 120, page: 1, per_page: 50, total_pages: 3 });
		const allIds = bodies.flatMap((b) => b.results.map((p) => p.post_id));
		expect(new Set(allIds).size).toBe(120);
		const byDefault = PhotoEnvelope.parse((await photoResults(ack.request_id)).body);
		expect(byDefault.pagination).toEqual({ total: 120, page: 1, per_page: 10, total_pages: 12 });
		expect(byDefault.results.map((p) => p.post_id)).toEqual(allIds.slice(0, 10));
		const invalid: Array<Record<string, number | string>> = [
			{ per_page: 101 },
			{ per_page: 0 },
			{ page: 0 },
			{ page: 'x' },
		];
		for (const query of invalid) {
			const response = await photoResults(ack.request_id, query);
			expect(response.status).toBe(400);
			expect(SchedulingError.parse(response.body).details).toMatch(/^(page|per_page)/);
		}
	});

	it('follows photoPostCount', async () => {
		sim.configure({ photoPostCount: 3 });
		const ack = SubmitAck.parse(
			(await photoSearch({ callback_url: receiver.url, keyword: 'x' })).body,
		);
		await sim.waitForDeliveries(1, 2000);
		expect(PhotoEnvelope.parse(receiver.received[0].body).results).toHaveLength(3);
		expect(
			PhotoEnvelope.parse((await photoResults(ack.request_id)).body).pagination.total_pages,
		).toBe(1);
	});

	it.each([
		['callback_url missing', { keyword: 'x' }, /^callback_url is required/],
		['keyword missing', { callback_url: 'http://127.0.0.1:9/' }, /^keyword is required/],
		['keyword empty', { callback_url: 'http://127.0.0.1:9/', keyword: '' }, /^keyword: /],
		[
			'external_identifier that is not text',
			{ callback_url: 'http://127.0.0.1:9/', keyword: 'x', external_identifier: 7 },
			/^external_identifier: /,
		],
	])('refuses %s with 400', async (_name, body, details) => {
		const response = await photoSearch(body);
		expect(response.status).toBe(400);
		expect(SchedulingError.parse(response.body).details).toMatch(details);
		expect(sim.counts().photoSearches).toBe(0);
	});

	it('takes an external_identifier longer than 255 characters (spec section "Limits": review jobs only)', async () => {
		const response = await photoSearch({
			callback_url: 'http://127.0.0.1:9/',
			keyword: 'x',
			external_identifier: 'e'.repeat(300),
		});
		expect(response.status).toBe(200);
		expect(sim.counts().photoSearches).toBe(1);
	});
});

describe('social-network scraper', () => {
	it('scrapes one post, calls back, and serves the envelope and status record', async () => {
		const url = 'https://social.example/posts/12345';
		const ack = SubmitAck.parse(
			(
				await socialScrape({
					callback_url: receiver.url,
					url,
					get_comments: true,
					external_identifier: 'lead-7',
				})
			).body,
		);
		const early = SocialEnvelope.parse(
			(
				await http('GET', `${sim.urls.socialScraperUrl}/v1/scrape/${ack.request_id}`, {
					headers: keyAuth(sim),
				})
			).body,
		);
		expect(early).toMatchObject({
			status: 'created',
			results: [],
			summary: null,
			pagination: null,
		});

		await sim.waitForDeliveries(1, 2000);
		const payload = SocialEnvelope.parse(receiver.received[0].body);
		expect(payload).toMatchObject({
			request_id: ack.request_id,
			status: 'completed',
			credits_used: 2,
			request_metadata: {
				url,
				callback_url: receiver.url,
				external_identifier: 'lead-7',
				get_comments: true,
			},
			summary: null,
			pagination: null,
		});
		expect(payload.results).toHaveLength(1);
		expect(payload.results[0].url).toBe(url);

		const envelope = await http('GET', `${sim.urls.socialScraperUrl}/v1/scrape/${ack.request_id}`, {
			headers: keyAuth(sim),
		});
		expect(SocialEnvelope.parse(envelope.body)).toEqual(payload);
		const record = SocialStatusRecord.parse(
			await status(sim.urls.socialScraperUrl, ack.request_id),
		);
		expect(record).toMatchObject({ status: 'completed', credits_used: 2 });
	});

	it('keeps each host to its own requests', async () => {
		const ack = SubmitAck.parse(
			(
				await socialScrape({
					callback_url: 'http://127.0.0.1:9/hook',
					url: 'https://social.example/p/1',
				})
			).body,
		);
		const elsewhere = await http(
			'GET',
			`${sim.urls.photoScraperUrl}/v1/requests/${ack.request_id}`,
			{ headers: keyAuth(sim) },
		);
		expect(elsewhere.status).toBe(404);
		const video = await http('GET', `${sim.urls.videoScraperUrl}/v1/requests/${ack.request_id}`, {
			headers: keyAuth(sim),
		});
		expect(video.status).toBe(404);
	});

	it.each([
		['callback_url missing', { url: 'https://social.example/p/1' }, /^callback_url is required/],
		['url missing', { callback_url: 'http://127.0.0.1:9/' }, /^url is required/],
		['url not a URL', { callback_url: 'http://127.0.0.1:9/', url: 'post 1' }, /^url: /],
		[
			'get_comments not a boolean',
			{ callback_url: 'http://127.0.0.1:9/', url: 'https://s.example/1', get_comments: 'yes' },
			/^get_comments: /,
		],
	])('refuses %s with 400', async (_name, body, details) => {
		const response = await socialScrape(body);
		expect(response.status).toBe(400);
		expect(SchedulingError.parse(response.body).details).toMatch(details);
		expect(sim.counts().scrapes).toBe(0);
	});
});

describe('video-platform scraper', () => {
	it('serves seeded requests through their lifecycle and calls back when a callback_url was seeded', async () => {
		const seeded = sim.seedVideoRequest({
			credits_used: 3,
			request_metadata: {
				url: 'https://video.example/watch/9',
				callback_url: receiver.url,
				get_comments: true,
			},
		});
		expect(
			VideoStatusRecord.parse(await status(sim.urls.videoScraperUrl, seeded.request_id)),
		).toMatchObject({
			status: 'created',
			credits_used: 0,
			request_metadata: {
				url: 'https://video.example/watch/9',
				external_identifier: null,
				get_comments: true,
			},
		});
		await sim.waitForDeliveries(1, 2000);
		const done = VideoStatusRecord.parse(await status(sim.urls.videoScraperUrl, seeded.request_id));
		expect(done).toMatchObject({ status: 'completed', credits_used: 3 });
		expect(receiver.received[0].body).toEqual(done);
	});

	it('keeps a seeded status as given', async () => {
		const seeded = sim.seedVideoRequest({ request_id: 'vid-login', status: 'login_required' });
		expect(seeded.request_id).toBe('vid-login');
		await new Promise((resolve) => setTimeout(resolve, 150));
		expect(
			VideoStatusRecord.parse(await status(sim.urls.videoScraperUrl, 'vid-login')).status,
		).toBe('login_required');
		expect(sim.deliveries()).toHaveLength(0);
		expect(sim.counts().videoRequests).toBe(1);
	});
});
