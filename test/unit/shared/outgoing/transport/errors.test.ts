import { NodeApiError } from 'n8n-workflow';

import { serviceError } from '../../../../../nodes/shared/outgoing/transport';
import { testNode } from '../../../helpers';

describe('service error mapping', () => {
	it("names the refused request's id and keeps the service's message", () => {
		const error = serviceError(testNode, { method: 'POST', path: '/v1/search' }, 200, {
			request_id: 'ph-9',
			status: 'failed',
			message: 'Insufficient credits',
		});
		expect(error.message).toBe('Insufficient credits');
		expect(error.description).toContain('request ph-9');
	});

	it('turns the scheduling error body into a NodeApiError with message, details and code', () => {
		const error = serviceError(
			testNode,
			{ method: 'POST', path: '/schedules', itemIndex: 2 },
			400,
			{ status: 'failed', message: 'Invalid request', details: 'frequency is required' },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Invalid request');
		expect(error.description).toBe('frequency is required (POST /schedules answered HTTP 400)');
		expect(error.httpCode).toBe('400');
		expect(error.context.itemIndex).toBe(2);
	});

	it('uses the body status of a success:false answer given with HTTP 200', () => {
		const error = serviceError(testNode, { method: 'POST', path: '/api/v2/profiles/add' }, 200, {
			success: false,
			status: 422,
			message: 'Profile not supported',
		});
		expect(error.message).toBe('Profile not supported');
		expect(error.httpCode).toBe('422');
		expect(error.description).toContain('POST /api/v2/profiles/add answered HTTP 422');
	});

	it('falls back to the HTTP code when the body has no message', () => {
		const error = serviceError(testNode, { method: 'GET', path: '/schedules/9' }, 503, '');
		expect(error.message).toBe('The service answered HTTP 503');
		expect(error.httpCode).toBe('503');
	});
});
