/**
 * Review profile API ({base_url}, paths /api/v2/...), token in the `spiderman-token` header.
 * Errors: `{ success: false, status, message }` bodies (docs/service-facts.md#review-api-errors).
 * Assumed (not documented, docs/service-facts.md#not-documented): 1 credit per review collected,
 * and that respond job ids and profile job ids share one id space for the listing audit. The job
 * callback is the job record (ReviewJobCallback, docs/service-facts.md#callback-payloads), posted
 * when the job ends complete or invalid_url; a profile whose URL or query contains
 * INVALID_URL_MARKER ends invalid_url.
 */
import { isoWithOffset } from '../clock';
import { generateAudit, generateJobReviews, stableUuid } from '../data';
import {
	type ApiDefinition,
	isPlainObject,
	json,
	reviewError,
	type RouteContext,
	type SimRuntime,
} from '../http';
import {
	formatZodError,
	type ProfileAddParams,
	ProfileAddQuery,
	type ReviewJobCallbackBody,
} from '../schemas';
import type { JobOrigin, ReviewJob } from '../state';

const QUEUED_MESSAGE = 'Profile added to queue';

/** A profile URL or search query containing this ends its job `invalid_url`. */
export const INVALID_URL_MARKER = 'invalid-url';
/**
 * A profile URL or search query containing `maintenance-<n>` puts its job in `maintenance` (the
 * scraping met a problem) until its n-th retry completes it; `maintenance-never` is never completed
 * and ends `failed`, without a callback (docs/service-facts.md#review-job-states).
 */
export const MAINTENANCE_MARKER = /maintenance-(\d+|never)/;

function sourceName(params: ProfileAddParams): string {
	if (params.place_id !== undefined || params.url === undefined) return 'google';
	try {
		return new URL(params.url).hostname.replace(/^www\./, '').split('.')[0] || 'google';
	} catch {
		return 'unknown';
	}
}

/** The job record the service posts to the callback (docs/service-facts.md#callback-payloads). */
export function reviewJobRecord(job: ReviewJob): ReviewJobCallbackBody {
	const { params, reviews } = job;
	const ratings = reviews.map((review) => review.rating_value);
	const average = ratings.length ? ratings.reduce((a, b) => a + b, 0) / ratings.length : 0;
	return {
		success: true,
		status: 200,
		job_id: job.job_id,
		source_url: params.url ?? null,
		source_name: sourceName(params),
		place_id: params.place_id ?? null,
		external_identifier: params.external_identifier ?? null,
		meta_data: JSON.stringify({
			...(params.query !== undefined ? { query: params.query } : {}),
			...(params.diff !== undefined ? { diff: Number(params.diff) } : {}),
			origin: job.origin,
		}),
		unique_id: stableUuid('review-job', job.job_id),
		review_count: reviews.length,
		average_rating: Math.round(average * 100) / 100,
		last_crawl: isoWithOffset(job.last_crawl ?? job.created_at),
		crawl_status: job.state === 'invalid_url' ? 'invalid_url' : 'complete',
		percentage_complete: 100,
		result_count: reviews.length,
		credits_used: reviews.length,
		from_date: params.from_date ?? null,
		blocks: params.blocks === undefined ? null : Number(params.blocks),
		reviews,
	};
}

const profileKey = (job: ReviewJob) =>
	job.params.url ?? job.params.place_id ?? job.params.query ?? String(job.job_id);

/**
 * A re-sync: the service crawls a finished job again and posts the same job_id with new content,
 * here `addReviews` more reviews (default 1). Returns the posted record, or why there is none.
 */
export function resyncReviewJob(
	rt: SimRuntime,
	jobId: number,
	addReviews = 1,
): ReviewJobCallbackBody | string {
	const job = rt.state.work.reviewJob.get(jobId);
	if (!job) return `Review job ${jobId} not found`;
	if (job.state !== 'complete') return `Review job ${jobId} is ${job.state}, not complete`;
	if (!job.params.callback) return `Review job ${jobId} has no callback`;
	job.resyncs++;
	const added = generateJobReviews(profileKey(job), { blocks: addReviews }, job.resyncs);
	job.reviews = [...added, ...job.reviews];
	job.last_crawl = new Date();
	const record = reviewJobRecord(job);
	rt.deliver(job.params.callback, record, 'reviewJob', job.job_id);
	return record;
}

export function createReviewJob(
	rt: SimRuntime,
	params: ProfileAddParams,
	origin: JobOrigin,
): ReviewJob {
	const job: ReviewJob = {
		job_id: rt.state.newJobId(origin),
		origin,
		params,
		state: 'queued',
		created_at: new Date(),
		reviews: [],
		last_crawl: null,
		resyncs: 0,
		maintenanceRetries: 0,
	};
	rt.state.work.reviewJob.set(job.job_id, job);
	rt.completeLater(() => {
		const maintenance = [params.url, params.query]
			.map((text) => text && MAINTENANCE_MARKER.exec(text)?.[1])
			.find(Boolean);
		if (maintenance) {
			maintainUntil(rt, job, maintenance === 'never' ? Infinity : Number(maintenance));
			return;
		}
		finishCrawl(rt, job);
	});
	return job;
}

/**
 * A job in maintenance is crawled again at each of the service's retry delays, counted from when
 * it entered maintenance; the `completesAt`-th retry completes it (with its callback), and after
 * the last one it is `failed`: nothing more happens, no callback.
 */
function maintainUntil(rt: SimRuntime, job: ReviewJob, completesAt: number): void {
	job.state = 'maintenance';
	const delays = rt.config.maintenanceRetryDelaysMs;
	delays.forEach((delay, index) => {
		rt.later(delay * rt.config.timeScale, () => {
			if (job.state !== 'maintenance') return;
			job.maintenanceRetries = index + 1;
			if (index + 1 >= completesAt) finishCrawl(rt, job);
			else if (index + 1 === delays.length) job.state = 'failed';
		});
	});
}

/** The crawl's end: complete (or invalid_url) with its reviews, and the callback. */
function finishCrawl(rt: SimRuntime, job: ReviewJob): void {
	const { params } = job;
	const invalid = [params.url, params.query].some((text) => text?.includes(INVALID_URL_MARKER));
	job.reviews = invalid
		? []
		: generateJobReviews(profileKey(job), {
				blocks: params.blocks === undefined ? undefined : Number(params.blocks),
				fromDate: params.from_date,
				diff: params.diff !== undefined,
			});
	job.state = invalid ? 'invalid_url' : 'complete';
	job.last_crawl = new Date();
	if (!params.callback) return;
	rt.deliver(params.callback, reviewJobRecord(job), 'reviewJob', job.job_id);
}

/**
 * A diff names an earlier job: the service refuses one it does not know
 * (docs/service-facts.md#review-api-errors).
 */
function unknownDiffJob(rt: SimRuntime, params: ProfileAddParams): string | undefined {
	if (params.diff === undefined || rt.state.work.reviewJob.has(Number(params.diff)))
		return undefined;
	return `No diff job exists with id ${String(params.diff)}`;
}

function add(ctx: RouteContext) {
	const parsed = ProfileAddQuery.safeParse(ctx.query);
	if (!parsed.success) return reviewError(400, formatZodError(parsed.error));
	const unknownDiff = unknownDiffJob(ctx.rt, parsed.data);
	if (unknownDiff) return reviewError(404, unknownDiff);
	const job = createReviewJob(ctx.rt, parsed.data, 'add');
	return json(200, { success: true, job_id: job.job_id, status: 200, message: QUEUED_MESSAGE });
}

function addBulk(ctx: RouteContext) {
	if (!Array.isArray(ctx.body)) {
		return reviewError(400, 'body must be a JSON array of profile objects');
	}
	const results = ctx.body.map((element: unknown) => {
		if (!isPlainObject(element)) {
			return { success: false, job_id: null, status: 400, message: 'element must be an object' };
		}
		const parsed = ProfileAddQuery.safeParse(element);
		if (!parsed.success) {
			return {
				...element,
				success: false,
				job_id: null,
				status: 400,
				message: formatZodError(parsed.error),
			};
		}
		const unknownDiff = unknownDiffJob(ctx.rt, parsed.data);
		if (unknownDiff) {
			return { ...element, success: false, job_id: null, status: 404, message: unknownDiff };
		}
		const job = createReviewJob(ctx.rt, parsed.data, 'add_bulk');
		return { ...element, success: true, job_id: job.job_id, status: 200, message: QUEUED_MESSAGE };
	});
	return json(200, results);
}

function parseJobId(raw: string | undefined): number | string {
	if (raw === undefined || raw === '') return 'job_id is required';
	if (!/^\d+$/.test(raw)) return 'job_id must be an integer';
	return Number(raw);
}

function respondJob(ctx: RouteContext) {
	const jobId = parseJobId(ctx.params.job_id);
	if (typeof jobId === 'string') return reviewError(400, jobId);
	const job = ctx.rt.state.respondJobs.find((candidate) => candidate.job_id === jobId);
	return job ? json(200, job) : reviewError(404, "This job ID doesn't exist, please create it");
}

function localNap(ctx: RouteContext) {
	const jobId = parseJobId(ctx.query.job_id);
	if (typeof jobId === 'string') return reviewError(400, jobId);
	if (!ctx.rt.state.isKnownJobId(jobId)) return reviewError(404, 'Job not found');
	return json(200, generateAudit(jobId));
}

export const reviewApi: ApiDefinition = {
	name: 'review',
	authenticate: (ctx) =>
		ctx.headers['spiderman-token'] === ctx.rt.config.token
			? null
			: reviewError(401, 'Invalid spiderman-token'),
	error: (status, message, details) => reviewError(status, details ?? message),
	routes: [
		{ method: 'POST', path: '/api/v2/profiles/add', handler: add },
		{ method: 'POST', path: '/api/v2/profiles/add_bulk', handler: addBulk },
		{
			method: 'GET',
			path: '/api/v2/responds/jobs',
			handler: (ctx) => json(200, ctx.rt.state.respondJobs),
		},
		{ method: 'GET', path: '/api/v2/responds/jobs/:job_id', handler: respondJob },
		{ method: 'GET', path: '/api/v2/local_naps/local_nap', handler: localNap },
	],
};
