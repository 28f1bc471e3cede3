import { normalizePayload, payloadOutcome } from '../../../../nodes/shared/incoming/callbackPayload';

describe('payload outcome', () => {
	it.each([
		[{ job_id: 1, crawl_status: 'complete', reviews: [] }, 'completed'],
		[{ job_id: 1, crawl_status: 'invalid_url', reviews: [] }, 'invalid_url'],
		[{ job_id: 1, success: false, status: 500 }, 'failed'],
		[{ request_id: 'r', status: 'completed' }, 'completed'],
		[{ request_id: 'r', status: 'success' }, 'completed'],
		[{ request_id: 'r', status: 'failed' }, 'failed'],
		[{ request_id: 'r', status: 'login_required' }, 'failed'],
		[{ request_id: 'r', status: 'FAILED' }, 'failed'],
	])('%j → %s', (payload, outcome) => {
		expect(payloadOutcome(payload)).toBe(outcome);
	});
});

describe('review job meta_data', () => {
	it('leaves a meta_data that is not a JSON object as it came, and other kinds untouched', () => {
		const job = { job_id: 1, meta_data: 'not json', reviews: [{ id: 'a', meta_data: '42' }] };
		expect(normalizePayload('reviewJob', job)).toEqual(job);
		const photo = { request_id: 'p', meta_data: '{"a":1}' };
		expect(normalizePayload('photoSearch', photo)).toBe(photo);
	});

	it('does not change the payload it was given', () => {
		const job = { job_id: 1, meta_data: '{"a":1}', reviews: [] };
		const normalized = normalizePayload('reviewJob', job);
		expect(normalized.meta_data).toEqual({ a: 1 });
		expect(job.meta_data).toBe('{"a":1}');
	});
});
