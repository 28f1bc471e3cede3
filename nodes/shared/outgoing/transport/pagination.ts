export interface Page<T> {
	items: T[];
	totalPages: number;
}

/**
 * Reads page 1 to learn how many pages there are, then the rest with at most `concurrency`
 * requests in flight. Pages are put back in order, so the result has no gaps or duplicates
 * whatever order the responses arrive in.
 */
export async function fetchAllPages<T>(
	fetchPage: (page: number) => Promise<Page<T>>,
	options: { concurrency: number; maxPages?: number },
): Promise<T[]> {
	const first = await fetchPage(1);
	const lastPage = Math.min(first.totalPages, options.maxPages ?? Number.POSITIVE_INFINITY);
	const pages: T[][] = [first.items];
	let nextPage = 2;
	const worker = async () => {
		while (nextPage <= lastPage) {
			const page = nextPage++;
			pages[page - 1] = (await fetchPage(page)).items;
		}
	};
	const workers = Math.max(1, Math.min(options.concurrency, lastPage - 1));
	await Promise.all(Array.from({ length: workers }, worker));
	return pages.flat();
}
