import {
	contentDigest,
	recordDelivery,
} from '../../../nodes/shared/incoming/trigger/recentDeliveries';

const job = {
	job_id: 556,
	crawl_status: 'complete',
	meta_data: '{"a":1}',
	reviews: [
		{ id: 'r1', rating_value: 5, review_text: 'Great' },
		{ id: 'r2', rating_value: 3, review_text: 'Fine' },
	],
};

describe('content digest', () => {
	it('is the same for the same content in another key order, at every depth', () => {
		const reordered = {
			reviews: [
				{ review_text: 'Great', id: 'r1', rating_value: 5 },
				{ rating_value: 3, review_text: 'Fine', id: 'r2' },
			],
			meta_data: '{"a":1}',
			crawl_status: 'complete',
			job_id: 556,
		};
		expect(contentDigest(reordered)).toBe(contentDigest(job));
	});

	it('differs with one review more, a changed value, or reviews in another order', () => {
		const digest = contentDigest(job);
		expect(
			contentDigest({ ...job, reviews: [...job.reviews, { id: 'r3', rating_value: 1 }] }),
		).not.toBe(digest);
		expect(contentDigest({ ...job, crawl_status: 'invalid_url' })).not.toBe(digest);
		expect(contentDigest({ ...job, reviews: [...job.reviews].reverse() })).not.toBe(digest);
	});

	it('tells null from a missing key and a number from a string', () => {
		expect(contentDigest({ a: null })).not.toBe(contentDigest({}));
		expect(contentDigest({ a: 1 })).not.toBe(contentDigest({ a: '1' }));
	});
});

describe('delivery window', () => {
	it('classifies new, repeat and update, and keeps the window bounded', () => {
		const scope = `scope-${Math.random()}`;
		const at = new Date('2026-11-22T10:00:00Z');
		const later = new Date('2026-11-22T12:00:00Z');
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], at).status).toBe('new');
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], later).status).toBe('repeat');
		expect(recordDelivery(scope, 'reviewJob:1', 'd2', 3, [], later)).toMatchObject({
			status: 'update',
			previousAt: at.toISOString(),
		});
		// The first content is still remembered: a late retry of it is a repeat, not an update.
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], later).status).toBe('repeat');
		recordDelivery(scope, 'reviewJob:2', 'd', 3, [], later);
		const verdict = recordDelivery(scope, 'reviewJob:3', 'd', 3, [], later);
		expect(verdict.entries.map((entry) => entry.key)).toEqual([
			'reviewJob:1',
			'reviewJob:2',
			'reviewJob:3',
		]);
		expect(verdict.entries.map((entry) => entry.digest)).toEqual(['d2', 'd', 'd']);
		// d1 fell out of the window: its content is news again, against the d2 still remembered.
		expect(recordDelivery(scope, 'reviewJob:1', 'd1', 3, [], later).status).toBe('update');
		expect(recordDelivery(scope, 'reviewJob:5', 'd', 3, [], later).status).toBe('new');
	});

	it('starts from the persisted entries and ignores entries it cannot read', () => {
		const scope = `scope-${Math.random()}`;
		const persisted = [{ key: 'k', digest: 'd', at: '2026-01-01T00:00:00.000Z' }, 'reviewJob:9'];
		expect(recordDelivery(scope, 'k', 'd', 10, persisted).status).toBe('repeat');
		expect(recordDelivery(scope, 'reviewJob:9', 'x', 10, persisted).status).toBe('new');
	});
});
