/**
 * Review index API ({review_index_url}), the target of `riapi` schedules. The interface names it
 * but shows none of its endpoints, so this is all assumed: POST /profiles and POST /reviews accept
 * any query and body, authenticate with the `api_key` query parameter (which is why
 * docs/service-facts.md#schedules forbids supplying it), answer a SubmitAck and call back
 * `callback` (query or body) with a ReviewIndexCallback once complete.
 */
import type { ScheduleTarget } from '../../nodes/shared/endpoints';
import { generateReviewIndexResults } from '../data';
import {
	type ApiDefinition,
	isPlainObject,
	json,
	type RouteContext,
	schedulingError,
} from '../http';
import type { ReviewIndexCallbackBody } from '../schemas';

function createJob(endpoint: ScheduleTarget<'riapi'>) {
	return (ctx: RouteContext) => {
		const { rt } = ctx;
		const { api_key: _secret, ...query } = ctx.query;
		const body = isPlainObject(ctx.body) ? ctx.body : {};
		const metadata: Record<string, unknown> = { ...query, ...body };
		const callback =
			[query.callback, body.callback, query.callback_url, body.callback_url].find(
				(value): value is string => typeof value === 'string' && value.length > 0,
			) ?? null;
		const requestId = rt.state.newRequestId('review-index');
		rt.state.work.reviewIndex.set(requestId, {
			request_id: requestId,
			endpoint,
			created_at: new Date(),
			callback,
		});
		rt.completeLater(() => {
			if (!callback) return;
			const results = generateReviewIndexResults(endpoint, JSON.stringify(metadata));
			const payload: ReviewIndexCallbackBody = {
				request_id: requestId,
				status: 'completed',
				endpoint,
				credits_used: results.length,
				request_metadata: metadata,
				results,
			};
			rt.deliver(callback, payload, 'reviewIndex', requestId);
		});
		return json(200, { status: 'created', message: 'Request created', request_id: requestId });
	};
}

export const reviewIndexApi: ApiDefinition = {
	name: 'reviewIndex',
	authenticate: (ctx) =>
		ctx.query.api_key === ctx.rt.config.apiKey ? null : schedulingError(401, 'Invalid API key'),
	error: (status, message, details) => schedulingError(status, message, details ?? null),
	routes: [
		{ method: 'POST', path: '/profiles', handler: createJob('profiles') },
		{ method: 'POST', path: '/reviews', handler: createJob('reviews') },
	],
};
