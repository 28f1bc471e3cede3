import type { IDataObject } from 'n8n-workflow';

import {
	normalizePayload,
	payloadId,
	payloadOutcome,
	recognizePayload,
} from '../../../../nodes/shared/incoming/callbackPayload';
import { samples } from '../../ScrapingCallbackTrigger/fakeWebhook';

const failed = { status: 'failed', results: null, summary: null, pagination: null };

describe('payload recognition', () => {
	it.each([
		...Object.entries(samples).map(([kind, payload]) => [`a ${kind}`, payload, kind]),
		[
			'a failed social scrape',
			{ ...failed, request_id: 's', request_metadata: { url: 'u' } },
			'socialScrape',
		],
		[
			'a failed photo search',
			{ ...failed, request_id: 'p', request_metadata: { keyword: '#x' } },
			'photoSearch',
		],
		['a failed product search', { ...failed, request_id: 'p-9' }, 'productSearch'],
		[
			'a video status in progress',
			{ ...samples.videoRequest, status: 'in_progress' },
			'videoRequest',
		],
	])('recognises %s from the keys it carries', (_label, payload, kind) => {
		expect(recognizePayload(payload as IDataObject)).toBe(kind);
	});

	it('uses job_id for review jobs and request_id otherwise', () => {
		expect(payloadId(samples.reviewJob)).toBe('41');
		expect(payloadId(samples.photoSearch)).toBe('ph-1');
		expect(payloadId(samples.unknown)).toBeUndefined();
	});
});

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
		[{ request_id: 'r', status: 'in_progress' }, 'pending'],
		[{ request_id: 'r', status: 'queued_for_review' }, 'pending'],
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
