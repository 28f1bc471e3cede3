import { NodeOperationError } from 'n8n-workflow';

import {
	assertCompleted,
	postItems,
	totalPages,
} from '../../../../nodes/SocialScraper/actions/results';
import { testNode } from '../../helpers';

describe('assertCompleted', () => {
	it('says that a request with no status is not completed yet, naming the item', () => {
		expect(() => assertCompleted(testNode, 2, 'r1', {})).toThrow(
			expect.objectContaining({
				constructor: NodeOperationError,
				message: 'Request r1 is not completed yet (status "unknown")',
				context: expect.objectContaining({ itemIndex: 2 }),
			}),
		);
	});

	it.each(['failed', 'login_required'])('says that a %s request has no results', (status) => {
		expect(() => assertCompleted(testNode, 0, 'r1', { status })).toThrow(
			`Request r1 did not complete: its status is "${status}", so it has no results`,
		);
	});
});

it('postItems falls back to the typed request id and to no posts', () => {
	expect(postItems({ results: [{ post_id: 'p1' }] }, 'typed')).toEqual([
		{ request_id: 'typed', post_id: 'p1' },
	]);
	expect(postItems({ results: null }, 'typed')).toEqual([]);
});

it.each([
	[{ pagination: { total: 120, page: 1, per_page: 10, total_pages: 12 } }, 12],
	[{ pagination: { total: 0, page: 1, per_page: 10, total_pages: 0 } }, 0],
	[{ pagination: { total: 21, per_page: 10 } }, 3],
	[{ pagination: null }, 1],
	[{}, 1],
])('totalPages reads %j as %d pages', (envelope, pages) => {
	expect(totalPages(envelope)).toBe(pages);
});
