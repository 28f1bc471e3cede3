import {
	PhotoEnvelope,
	PhotoStatusRecord,
	SchedulingError,
	SocialEnvelope,
	SocialStatusRecord,
	SubmitAck,
	VideoStatusRecord,
} from '../../simulator/schemas';
import { eventually, sleep, useSimulator } from './helpers';

const suite = useSimulator({ completionDelayMs: 120 });
const hook = 'http://127.0.0.1:9/hook';

const photoSearch = (body: Record<string, unknown>) =>
	suite.call('POST photo /v1/search', { body });
const submitPhoto = async (body: Record<string, unknown> = {}) =>
	SubmitAck.parse(
		(await photoSearch({ callback_url: suite.receiver.url, keyword: 'x', ...body })).body,
	).request_id;
const photoResults = async (id: string, query: Record<string, number | string> = {}) =>
	PhotoEnvelope.parse((await suite.call(`GET photo /v1/search/${id}`, { query })).body);
const socialScrape = (body: Record<string, unknown>) =>
	suite.call('POST social /v1/scrape', { body });
const status = async (api: 'photo' | 'social' | 'video', id: string) =>
	(await suite.call(`GET ${api} /v1/requests/${id}`)).body;

/** The refusals of a scraping API: 400 naming the field, and nothing created. */
async function expectRefused(
	answer: ReturnType<typeof photoSearch>,
	details: RegExp,
	created: () => number,
) {
	const response = await answer;
	expect(response.status).toBe(400);
	expect(SchedulingError.parse(response.body).details).toMatch(details);
	expect(created()).toBe(0);
}

describe('photo-sharing scraper', () => {
	it('goes created → completed and calls back with every post', async () => {
		suite.sim.configure({ completionDelayMs: 400 });
		const id = await submitPhoto({ keyword: '#sunset', external_identifier: 'ext-1' });
		// Before completion: created, or already in progress on a loaded machine.
		const first = PhotoStatusRecord.parse(await status('photo', id));
		expect(['created', 'in_progress']).toContain(first.status);
		expect(first).toMatchObject({
			credits_used: 0,
			request_metadata: {
				keyword: '#sunset',
				callback_url: suite.receiver.url,
				external_identifier: 'ext-1',
			},
		});
		const early = await photoResults(id);
		expect(['created', 'in_progress']).toContain(early.status);
		expect(early.results).toEqual([]);
		expect(early.pagination.total).toBe(0);

		const [delivery] = await suite.sim.waitForDeliveries(1, 2000);
		expect(delivery).toMatchObject({ kind: 'photoSearch', state: 'delivered', ref: id });
		const payload = PhotoEnvelope.parse(suite.receiver.received[0].body);
		expect(payload.status).toBe('completed');
		expect(payload.request_metadata.external_identifier).toBe('ext-1');
		expect(payload.results).toHaveLength(120);
		expect(payload.pagination).toEqual({ total: 120, page: 1, per_page: 120, total_pages: 1 });
		expect(payload.credits_used).toBe(120);
		expect(payload.summary.total_posts).toBe(120);
		const users = new Set(payload.results.map((p) => p.author.id)).size;
		expect(payload.summary.unique_user_count).toBe(users);
		expect(users).toBeLessThan(120);
		expect(payload.results.every((p) => p.hashtags.includes('sunset'))).toBe(true);

		const done = PhotoStatusRecord.parse(await status('photo', id));
		expect(done.status).toBe('completed');
		expect(done.credits_used).toBe(120);
		expect(Date.parse(done.updated_at)).toBeGreaterThan(Date.parse(done.created_at));
	});

	it('passes through in_progress halfway', async () => {
		suite.sim.configure({ completionDelayMs: 400 });
		const id = await submitPhoto();
		await eventually(
			() => suite.sim.state.work.photoSearch.get(id)!.status === 'in_progress',
			1000,
		);
		expect(PhotoStatusRecord.parse(await status('photo', id)).status).toBe('in_progress');
	});

	it('pages results exactly, default per_page 10, at most 100', async () => {
		const id = await submitPhoto({ keyword: 'food' });
		await suite.sim.waitForDeliveries(1, 2000);
		const pages = await Promise.all(
			[1, 2, 3, 4].map((page) => photoResults(id, { page, per_page: 50 })),
		);
		expect(pages.map((b) => b.results.length)).toEqual([50, 50, 20, 0]);
		expect(pages[0].pagination).toEqual({ total: 120, page: 1, per_page: 50, total_pages: 3 });
		const allIds = pages.flatMap((b) => b.results.map((p) => p.post_id));
		expect(new Set(allIds).size).toBe(120);
		const byDefault = await photoResults(id);
		expect(byDefault.pagination).toEqual({ total: 120, page: 1, per_page: 10, total_pages: 12 });
		expect(byDefault.results.map((p) => p.post_id)).toEqual(allIds.slice(0, 10));
		for (const query of [{ per_page: 101 }, { per_page: 0 }, { page: 0 }, { page: 'x' }] as Array<
			Record<string, number | string>
		>) {
			const response = await suite.call(`GET photo /v1/search/${id}`, { query });
			expect(response.status).toBe(400);
			expect(SchedulingError.parse(response.body).details).toMatch(/^(page|per_page)/);
		}
	});

	it.each([
		['callback_url missing', { keyword: 'x' }, /^callback_url is required/],
		['keyword missing', { callback_url: hook }, /^keyword is required/],
		['keyword empty', { callback_url: hook, keyword: '' }, /^keyword: /],
		[
			'external_identifier that is not text',
			{ callback_url: hook, keyword: 'x', external_identifier: 7 },
			/^external_identifier: /,
		],
	])('refuses %s with 400', (_name, body, details) =>
		expectRefused(photoSearch(body), details, () => suite.sim.counts().photoSearches),
	);
});

describe('social-network scraper', () => {
	it('scrapes one post, calls back, and serves the envelope and status record', async () => {
		const url = 'https://social.example/posts/12345';
		const metadata = {
			callback_url: suite.receiver.url,
			url,
			get_comments: true,
			external_identifier: 'lead-7',
		};
		const id = SubmitAck.parse((await socialScrape(metadata)).body).request_id;
		const envelope = async () =>
			SocialEnvelope.parse((await suite.call(`GET social /v1/scrape/${id}`)).body);
		const early = await envelope();
		expect(['created', 'in_progress']).toContain(early.status);
		expect(early).toMatchObject({
			results: [],
			summary: null,
			pagination: null,
		});

		await suite.sim.waitForDeliveries(1, 2000);
		const payload = SocialEnvelope.parse(suite.receiver.received[0].body);
		expect(payload).toMatchObject({
			request_id: id,
			status: 'completed',
			credits_used: 2,
			request_metadata: metadata,
			summary: null,
			pagination: null,
		});
		expect(payload.results).toHaveLength(1);
		expect(payload.results[0].url).toBe(url);
		expect(await envelope()).toEqual(payload);
		expect(SocialStatusRecord.parse(await status('social', id))).toMatchObject({
			status: 'completed',
			credits_used: 2,
		});
	});

	it('keeps each host to its own requests', async () => {
		const answer = await socialScrape({ callback_url: hook, url: 'https://social.example/p/1' });
		const id = SubmitAck.parse(answer.body).request_id;
		expect((await suite.call(`GET photo /v1/requests/${id}`)).status).toBe(404);
		expect((await suite.call(`GET video /v1/requests/${id}`)).status).toBe(404);
	});

	it.each([
		['callback_url missing', { url: 'https://social.example/p/1' }, /^callback_url is required/],
		['url missing', { callback_url: hook }, /^url is required/],
		['url not a URL', { callback_url: hook, url: 'post 1' }, /^url: /],
		[
			'get_comments not a boolean',
			{ callback_url: hook, url: 'https://s.example/1', get_comments: 'yes' },
			/^get_comments: /,
		],
	])('refuses %s with 400', (_name, body, details) =>
		expectRefused(socialScrape(body), details, () => suite.sim.counts().scrapes),
	);
});

describe('video-platform scraper', () => {
	it('serves seeded requests through their lifecycle and calls back when a callback_url was seeded', async () => {
		const request_metadata = {
			url: 'https://video.example/watch/9',
			callback_url: suite.receiver.url,
			get_comments: true,
		};
		const { request_id } = suite.sim.seedVideoRequest({ credits_used: 3, request_metadata });
		// On a loaded machine the lifecycle may have moved on before this first read.
		const first = VideoStatusRecord.parse(await status('video', request_id));
		expect(['created', 'in_progress']).toContain(first.status);
		expect(first).toMatchObject({
			credits_used: 0,
			request_metadata: { ...request_metadata, external_identifier: null },
		});
		await suite.sim.waitForDeliveries(1, 2000);
		const done = VideoStatusRecord.parse(await status('video', request_id));
		expect(done).toMatchObject({ status: 'completed', credits_used: 3 });
		expect(suite.receiver.received[0].body).toEqual(done);
	});

	it('keeps a seeded status as given', async () => {
		const seeded = suite.sim.seedVideoRequest({
			request_id: 'vid-login',
			status: 'login_required',
		});
		expect(seeded.request_id).toBe('vid-login');
		await sleep(150);
		expect(VideoStatusRecord.parse(await status('video', 'vid-login')).status).toBe(
			'login_required',
		);
		expect(suite.sim.deliveries()).toHaveLength(0);
		expect(suite.sim.counts().videoRequests).toBe(1);
	});
});
