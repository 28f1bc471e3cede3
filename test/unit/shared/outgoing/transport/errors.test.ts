import { NodeApiError } from 'n8n-workflow';

import { serviceError } from '../../../../../nodes/shared/outgoing/transport';
import { testNode } from '../../../helpers';

describe('service error mapping', () => {
	it.each([
		[
			"names the refused request's id",
			['POST', '/v1/search', 200, { request_id: 'ph-9', status: 'failed', message: 'No credits' }],
			{ message: 'No credits', description: expect.stringContaining('request ph-9') },
		],
		[
			'keeps the scheduling error details',
			['POST', '/schedules', 400, { status: 'failed', message: 'Invalid', details: 'x missing' }],
			{
				message: 'Invalid',
				httpCode: '400',
				description: 'x missing (POST /schedules answered HTTP 400)',
			},
		],
		[
			'uses the body status of a success:false answer in HTTP 200',
			['POST', '/api/v2/a', 200, { success: false, status: 422, message: 'Not supported' }],
			{ httpCode: '422', description: expect.stringContaining('POST /api/v2/a answered HTTP 422') },
		],
		[
			'falls back to the HTTP code without a message',
			['GET', '/schedules/9', 503, ''],
			{ message: 'The service answered HTTP 503', httpCode: '503' },
		],
	] as const)('%s', (_case, [method, path, status, body], expected) => {
		const error = serviceError(testNode, { method, path, itemIndex: 2 }, status, body);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error).toMatchObject({ ...expected, context: { itemIndex: 2 } });
	});
});
