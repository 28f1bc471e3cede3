import { ENDPOINTS, withRows } from '../../../../../nodes/shared/endpoints';
import { endpointRequest, tableRequest } from '../../../../../nodes/shared/outgoing/transport/apis';

describe('endpointRequest', () => {
	it('takes the method and path from the table and fills the path parameters', () => {
		expect(
			endpointRequest('photo', 'GET /v1/requests/:request_id', { request_id: 'a b/7' }),
		).toEqual({
			api: 'photo',
			method: 'GET',
			path: '/v1/requests/a%20b%2F7',
			callbackKeys: ['callback_url'],
		});
		expect(
			endpointRequest('review', 'POST /api/v2/profiles/add', {}, { qs: { url: 'u' }, body: {} }),
		).toEqual({
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			qs: { url: 'u' },
			body: {},
			callbackKeys: ['callback'],
		});
		expect(endpointRequest('review', 'GET /api/v2/responds/jobs')).not.toHaveProperty(
			'callbackKeys',
		);
	});

	it('refuses an endpoint the table does not declare, or one of another API', () => {
		expect(() =>
			// @ts-expect-error: a route of another API does not compile.
			endpointRequest('review', 'GET /v1/requests/:request_id', { request_id: 1 }),
		).toThrow('The endpoint table has no review endpoint GET /v1/requests/:request_id');
		// @ts-expect-error: nor does one the table lacks.
		expect(() => endpointRequest('social', 'DELETE /v1/scrape')).toThrow('no social endpoint');
		expect(() => tableRequest(ENDPOINTS, 'social', 'POST /v1/scrapes')).toThrow(
			'no social endpoint',
		);
	});

	it('refuses a missing path parameter', () => {
		expect(() => endpointRequest('scheduling', 'GET /schedules/:schedule_id')).toThrow(
			'GET /schedules/:schedule_id needs its path parameter schedule_id',
		);
	});

	it('serves a row declared in memory', () => {
		const table = withRows(ENDPOINTS, {
			endpoints: [{ api: 'social', method: 'POST', path: '/v1/extra/:id' }],
		});
		expect(tableRequest(table, 'social', 'POST /v1/extra/:id', { id: 3 }).path).toBe('/v1/extra/3');
	});
});
