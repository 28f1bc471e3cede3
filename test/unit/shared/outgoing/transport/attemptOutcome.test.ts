import { isServiceFailure } from '../../../../../nodes/shared/outgoing/transport/attemptOutcome';

describe('which answers are service failures', () => {
	it.each([
		[400, { status: 'failed', message: 'Invalid request', details: 'frequency missing' }, true],
		[200, { success: false, status: 400, message: 'Bad profile' }, true],
		[200, { status: 'failed', message: 'x' }, true],
		[500, 'oops', true],
		[200, { success: true, job_id: 1, status: 200 }, false],
		[201, { status: 'success', results: [] }, false],
		[200, [{ success: false }], false],
		[200, { request_id: 'v-1', status: 'failed', credits_used: 0 }, false],
	])('HTTP %s with %j is a failure: %s', (status, body, expected) => {
		expect(isServiceFailure(status, body)).toBe(expected);
	});

	it.each([
		['POST', { request_id: 'ph-9', status: 'failed', message: 'Insufficient credits' }, true],
		['POST', { request_id: 'ph-9', status: 'created', message: 'Request created' }, false],
		['GET', { request_id: 'ph-9', status: 'failed', credits_used: 0 }, false],
		['DELETE', { status: 'failed', message: 'Not found' }, true],
	])('%s answered HTTP 200 with %j is a failure: %s', (method, body, expected) => {
		expect(isServiceFailure(200, body, method)).toBe(expected);
	});
});
