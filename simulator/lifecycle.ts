import type { SimRuntime } from './http';
import type { AsyncRequest } from './state';

/**
 * created → in_progress halfway through completionDelayMs → completed, then `onComplete`.
 * A status the request was seeded with is left alone.
 */
export function runLifecycle<M, R>(
	rt: SimRuntime,
	request: AsyncRequest<M, R>,
	onComplete: () => void,
): void {
	const delay = rt.config.completionDelayMs;
	rt.later(Math.floor(delay / 2), () => {
		if (request.status !== 'created') return;
		request.status = 'in_progress';
		request.updated_at = new Date();
	});
	rt.completeLater(() => {
		if (request.status !== 'created' && request.status !== 'in_progress') return;
		request.status = 'completed';
		request.credits_used = request.final_credits;
		request.updated_at = new Date();
		onComplete();
	});
}
