/**
 * Photo-sharing scraper ({photo_scraper_url}), key in the `x-api-key` header. Assumed (not
 * documented, docs/service-facts.md#not-documented): submit answers 200; GET /v1/search/:id
 * defaults to per_page 10 (maximum 100, larger is 400); before completion it answers 200 with the
 * envelope carrying the request's current status, no results and zero totals (not 409); unknown ids
 * are 404 `{ status: 'failed', message: 'Not found', details: null }`; 1 credit per post found.
 */
import { generatePhotoPosts } from '../data';
import {
	type ApiDefinition,
	apiKeyError,
	json,
	notFound,
	type RouteContext,
	schedulingError,
} from '../http';
import { runLifecycle } from '../lifecycle';
import {
	formatZodError,
	type PhotoEnvelopeBody,
	PhotoResultsQuery,
	PhotoSearchRequest,
} from '../schemas';
import { type PhotoRequest, statusRecord } from '../state';

export const DEFAULT_PHOTO_PER_PAGE = 10;

function envelope(request: PhotoRequest, page: number, perPage: number): PhotoEnvelopeBody {
	const done = request.status === 'completed';
	const all = done ? request.results : [];
	return {
		request_id: request.request_id,
		status: request.status,
		credits_used: request.credits_used,
		request_metadata: request.request_metadata,
		results: all.slice((page - 1) * perPage, page * perPage),
		summary: {
			total_posts: all.length,
			unique_user_count: new Set(all.map((post) => post.author.id)).size,
		},
		pagination: {
			total: all.length,
			page,
			per_page: perPage,
			total_pages: Math.ceil(all.length / perPage),
		},
	};
}

function submit(ctx: RouteContext) {
	const { rt } = ctx;
	const parsed = PhotoSearchRequest.safeParse(ctx.body);
	if (!parsed.success) return schedulingError(400, 'Invalid request', formatZodError(parsed.error));
	const input = parsed.data;
	const now = new Date();
	const results = generatePhotoPosts(input.keyword, rt.config.photoPostCount);
	const request: PhotoRequest = {
		request_id: rt.state.newRequestId('photo'),
		status: 'created',
		created_at: now,
		updated_at: now,
		credits_used: 0,
		final_credits: results.length,
		request_metadata: {
			keyword: input.keyword,
			callback_url: input.callback_url,
			external_identifier: input.external_identifier ?? null,
		},
		results,
	};
	rt.state.work.photoSearch.set(request.request_id, request);
	runLifecycle(rt, request, () => {
		const total = request.results.length;
		const payload = { ...envelope(request, 1, Math.max(total, 1)) };
		payload.pagination = { total, page: 1, per_page: total, total_pages: 1 };
		rt.deliver(input.callback_url, payload, 'photoSearch', request.request_id);
	});
	return json(200, {
		status: 'created',
		message: 'Request created',
		request_id: request.request_id,
	});
}

function results(ctx: RouteContext) {
	const request = ctx.rt.state.work.photoSearch.get(ctx.params.request_id);
	if (!request) return notFound();
	const query = PhotoResultsQuery.safeParse(ctx.query);
	if (!query.success) return schedulingError(400, 'Invalid request', formatZodError(query.error));
	const page = query.data.page ?? 1;
	const perPage = query.data.per_page ?? DEFAULT_PHOTO_PER_PAGE;
	return json(200, envelope(request, page, perPage));
}

function status(ctx: RouteContext) {
	const request = ctx.rt.state.work.photoSearch.get(ctx.params.request_id);
	return request ? json(200, statusRecord(request)) : notFound();
}

export const photoApi: ApiDefinition = {
	name: 'photo',
	authenticate: apiKeyError,
	error: (code, message, details) => schedulingError(code, message, details ?? null),
	routes: [
		{ method: 'POST', path: '/v1/search', handler: submit },
		{ method: 'GET', path: '/v1/search/:request_id', handler: results },
		{ method: 'GET', path: '/v1/requests/:request_id', handler: status },
	],
};
