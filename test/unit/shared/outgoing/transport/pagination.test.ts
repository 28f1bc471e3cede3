import { fetchAllPages } from '../../../../../nodes/shared/outgoing/transport';

describe('fetchAllPages', () => {
	const pageSize = 7;
	const total = 150;
	const pageOf = (page: number) =>
		Array.from(
			{ length: Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize)) },
			(_, i) => (page - 1) * pageSize + i,
		);

	it('returns every item once and in order, with bounded concurrency', async () => {
		let inFlight = 0;
		let maxInFlight = 0;
		const requested: number[] = [];
		const items = await fetchAllPages(
			async (page) => {
				requested.push(page);
				inFlight++;
				maxInFlight = Math.max(maxInFlight, inFlight);
				// Later pages answer first, to prove the order does not depend on arrival.
				await new Promise((resolve) => setTimeout(resolve, 30 - (page % 5) * 5));
				inFlight--;
				return { items: pageOf(page), totalPages: Math.ceil(total / pageSize) };
			},
			{ concurrency: 4 },
		);
		expect(items).toEqual(Array.from({ length: total }, (_, i) => i));
		expect(new Set(requested).size).toBe(requested.length);
		expect(requested).toHaveLength(Math.ceil(total / pageSize));
		expect(maxInFlight).toBeLessThanOrEqual(4);
		expect(maxInFlight).toBeGreaterThan(1);
	});

	it('stops at maxPages and makes one request for a single page', async () => {
		const calls: number[] = [];
		const fetch = async (page: number) => {
			calls.push(page);
			return { items: pageOf(page), totalPages: 22 };
		};
		expect(await fetchAllPages(fetch, { concurrency: 3, maxPages: 2 })).toHaveLength(14);
		expect(calls.sort()).toEqual([1, 2]);
		calls.length = 0;
		expect(await fetchAllPages(fetch, { concurrency: 3, maxPages: 1 })).toEqual(pageOf(1));
		expect(calls).toEqual([1]);
	});
});
