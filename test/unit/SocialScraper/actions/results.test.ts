import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	assertCompleted,
	postItems,
	totalPages,
} from '../../../../nodes/SocialScraper/actions/results';
import { send } from '../../../../nodes/shared/outgoing/transport';
import { testNode } from '../../helpers';

describe('assertCompleted', () => {
	it('lets a completed request through', () => {
		expect(() => assertCompleted(testNode, 0, 'r1', { status: 'completed' })).not.toThrow();
	});

	it.each(['created', 'in_progress', 'queued', undefined])(
		'says that a request with status %s is not completed yet',
		(status) => {
			expect(() => assertCompleted(testNode, 2, 'r1', { status })).toThrow(
				expect.objectContaining({
					constructor: NodeOperationError,
					message: `Request r1 is not completed yet (status "${status ?? 'unknown'}")`,
					description: expect.stringMatching(/callback URL/),
					context: expect.objectContaining({ itemIndex: 2 }),
				}),
			);
		},
	);

	it.each(['failed', 'login_required'])('says that a %s request has no results', (status) => {
		expect(() => assertCompleted(testNode, 0, 'r1', { status })).toThrow(
			`Request r1 did not complete: its status is "${status}", so it has no results`,
		);
	});
});

describe('postItems', () => {
	it('gives one item per post with the request_id of the envelope', () => {
		expect(
			postItems({ request_id: 'r1', results: [{ post_id: 'p1' }, { post_id: 'p2' }] }, 'typed'),
		).toEqual([
			{ request_id: 'r1', post_id: 'p1' },
			{ request_id: 'r1', post_id: 'p2' },
		]);
	});

	it('falls back to the typed request id and to no posts', () => {
		expect(postItems({ results: [{ post_id: 'p1' }] }, 'typed')).toEqual([
			{ request_id: 'typed', post_id: 'p1' },
		]);
		expect(postItems({ results: null }, 'typed')).toEqual([]);
	});
});

describe('totalPages', () => {
	it.each([
		[{ pagination: { total: 120, page: 1, per_page: 10, total_pages: 12 } }, 12],
		[{ pagination: { total: 0, page: 1, per_page: 10, total_pages: 0 } }, 0],
		[{ pagination: { total: 21, per_page: 10 } }, 3],
		[{ pagination: null }, 1],
		[{}, 1],
	])('reads %j as %d pages', (envelope, pages) => {
		expect(totalPages(envelope)).toBe(pages);
	});
});

describe("a scraper's GET", () => {
	const readRequest = (context: IExecuteFunctions) =>
		send.call(context, { api: 'video', method: 'GET', path: '/v1/requests/v1', itemIndex: 0 });

	function contextAnswering(status: number, body: unknown) {
		const sent: IHttpRequestOptions[] = [];
		const context = {
			getNode: () => testNode,
			getCredentials: async () => ({ apiKey: 'k', videoScraperUrl: 'http://127.0.0.1:9/video/' }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
					sent.push(options);
					return { statusCode: status, body, headers: {} };
				},
			},
		};
		return { context: context as unknown as IExecuteFunctions, sent };
	}

	it('returns the record of a failed request instead of failing the call', async () => {
		const record = { request_id: 'v1', status: 'failed', credits_used: 0 };
		const { context, sent } = contextAnswering(200, record);
		await expect(readRequest(context)).resolves.toEqual(record);
		expect(sent[0].url).toBe('http://127.0.0.1:9/video/v1/requests/v1');
	});

	it('still fails on an HTTP error', async () => {
		const { context } = contextAnswering(404, {
			status: 'failed',
			message: 'Not found',
			details: null,
			request_id: 'v1',
		});
		const call = readRequest(context);
		await expect(call).rejects.toBeInstanceOf(NodeApiError);
		await expect(call).rejects.toMatchObject({ message: 'Not found', httpCode: '404' });
	});

	it('still fails on a 200 failure body that describes no request', async () => {
		const { context } = contextAnswering(200, { status: 'failed', message: 'Broken' });
		await expect(readRequest(context)).rejects.toMatchObject({
			message: 'Broken',
		});
	});
});
