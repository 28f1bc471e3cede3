/**
 * Social-network scraper ({social_scraper_url}), key in the `x-api-key` header. Assumed (not
 * documented, docs/service-facts.md#not-documented): submit answers 200; the result holds the one
 * scraped post; GET /v1/scrape/:id before completion answers the envelope with the current status
 * and no results; /v1/requests/:id exists on this host too; 1 credit per scrape, 2 with
 * get_comments; the comments endpoint is not simulated.
 */
import { generateSocialPost } from '../data';
import {
	type ApiDefinition,
	apiKeyError,
	json,
	notFound,
	type RouteContext,
	schedulingError,
} from '../http';
import { runLifecycle } from '../lifecycle';
import { formatZodError, type SocialEnvelopeBody, SocialScrapeRequest } from '../schemas';
import { type SocialRequest, statusRecord } from '../state';

function envelope(request: SocialRequest): SocialEnvelopeBody {
	return {
		request_id: request.request_id,
		status: request.status,
		credits_used: request.credits_used,
		request_metadata: request.request_metadata,
		results: request.status === 'completed' ? request.results : [],
		summary: null,
		pagination: null,
	};
}

function submit(ctx: RouteContext) {
	const { rt } = ctx;
	const parsed = SocialScrapeRequest.safeParse(ctx.body);
	if (!parsed.success) return schedulingError(400, 'Invalid request', formatZodError(parsed.error));
	const input = parsed.data;
	const now = new Date();
	const request: SocialRequest = {
		request_id: rt.state.newRequestId('social'),
		status: 'created',
		created_at: now,
		updated_at: now,
		credits_used: 0,
		final_credits: input.get_comments ? 2 : 1,
		request_metadata: {
			url: input.url,
			callback_url: input.callback_url,
			external_identifier: input.external_identifier ?? null,
			get_comments: input.get_comments ?? false,
		},
		results: [generateSocialPost(input.url)],
	};
	rt.state.work.socialScrape.set(request.request_id, request);
	runLifecycle(rt, request, () =>
		rt.deliver(input.callback_url, envelope(request), 'socialScrape', request.request_id),
	);
	return json(200, {
		status: 'created',
		message: 'Request created',
		request_id: request.request_id,
	});
}

function find(ctx: RouteContext) {
	return ctx.rt.state.work.socialScrape.get(ctx.params.request_id);
}

export const socialApi: ApiDefinition = {
	name: 'social',
	authenticate: apiKeyError,
	error: (code, message, details) => schedulingError(code, message, details ?? null),
	routes: [
		{ method: 'POST', path: '/v1/scrape', handler: submit },
		{
			method: 'GET',
			path: '/v1/scrape/:request_id',
			handler: (ctx) => {
				const request = find(ctx);
				return request ? json(200, envelope(request)) : notFound();
			},
		},
		{
			method: 'GET',
			path: '/v1/requests/:request_id',
			handler: (ctx) => {
				const request = find(ctx);
				return request ? json(200, statusRecord(request)) : notFound();
			},
		},
	],
};
