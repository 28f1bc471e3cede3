/**
 * Review profile API ({base_url}, paths /api/v2/...), token in the `spiderman-token` header.
 * Assumed (not shown by the spec): error bodies `{ success: false, status, message }`, the job
 * callback payload (ReviewJobCallback), 1 credit per review collected, and that respond job ids
 * and profile job ids share one id space for the listing audit.
 */
import { generateAudit, generateReviews } from '../data';
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
	};
	rt.state.reviewJobs.set(job.job_id, job);
	rt.later(rt.config.completionDelayMs, () => {
		const key = params.url ?? params.place_id ?? params.query ?? String(job.job_id);
		job.reviews = generateReviews(key, {
			blocks: params.blocks === undefined ? undefined : Number(params.blocks),
			fromDate: params.from_date,
			diff: params.diff !== undefined,
		});
		job.state = 'complete';
		if (!params.callback) return;
		const payload: ReviewJobCallbackBody = {
			job_id: job.job_id,
			status: 'complete',
			success: true,
			external_identifier: params.external_identifier ?? null,
			...(params.url !== undefined ? { profile_url: params.url } : {}),
			...(params.query !== undefined ? { query: params.query } : {}),
			...(params.place_id !== undefined ? { place_id: params.place_id } : {}),
			credits_used: job.reviews.length,
			review_count: job.reviews.length,
			reviews: job.reviews,
		};
		rt.deliver(params.callback, payload, 'review-job', job.job_id);
	});
	return job;
}

function add(ctx: RouteContext) {
	const parsed = ProfileAddQuery.safeParse(ctx.query);
	if (!parsed.success) return reviewError(400, formatZodError(parsed.error));
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
