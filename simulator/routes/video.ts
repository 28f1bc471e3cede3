/**
 * Video-platform scraper ({video_scraper_url}), key in the `x-api-key` header. Its submit endpoint
 * is not documented (docs/service-facts.md#social-scrapers), so requests only exist through
 * `seedVideoRequest()` or POST /__sim/video-requests. Assumed: a seeded request without a fixed
 * status goes created → in_progress → completed like the other scrapers, and then POSTs its status
 * record to `request_metadata.callback_url` if the seed supplied one.
 */
import {
	type ApiDefinition,
	apiKeyError,
	json,
	notFound,
	schedulingError,
	type SimRuntime,
} from '../http';
import { runLifecycle } from '../lifecycle';
import type { RequestStatusRecordBody, VideoSeedBody } from '../schemas';
import { statusRecord, type VideoRequest } from '../state';

export function seedVideoRequest(
	rt: SimRuntime,
	seed: VideoSeedBody = {},
): RequestStatusRecordBody {
	const now = new Date();
	const credits = seed.credits_used ?? 1;
	const request: VideoRequest = {
		request_id: seed.request_id ?? rt.state.newRequestId('video'),
		status: seed.status ?? 'created',
		created_at: now,
		updated_at: now,
		credits_used: seed.status === undefined ? 0 : credits,
		final_credits: credits,
		request_metadata: {
			callback_url: seed.request_metadata?.callback_url ?? '',
			external_identifier: seed.request_metadata?.external_identifier ?? null,
			get_comments: seed.request_metadata?.get_comments ?? false,
			url: seed.request_metadata?.url ?? 'https://video.example/watch/sim-video-1',
		},
		results: [],
	};
	rt.state.work.videoRequest.set(request.request_id, request);
	if (seed.status === undefined) {
		runLifecycle(rt, request, () => {
			const callback = seed.request_metadata?.callback_url;
			if (callback) {
				rt.deliver(callback, statusRecord(request), 'videoRequest', request.request_id);
			}
		});
	}
	return statusRecord(request);
}

export const videoApi: ApiDefinition = {
	name: 'video',
	authenticate: apiKeyError,
	error: (code, message, details) => schedulingError(code, message, details ?? null),
	routes: [
		{
			method: 'GET',
			path: '/v1/requests/:request_id',
			handler: (ctx) => {
				const request = ctx.rt.state.work.videoRequest.get(ctx.params.request_id);
				return request ? json(200, statusRecord(request)) : notFound();
			},
		},
	],
};
