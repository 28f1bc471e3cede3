/**
 * The e-commerce search itself: products found, the filters of
 * docs/service-facts.md#e-commerce-search, limit and pagination.
 */
import { generateProducts, type Product, SEARCH_PAGES } from './data';
import {
	ECOMMERCE_SOURCES,
	type EcommerceFiltersBody,
	type EcommerceSearchBody,
	type EcommerceSource,
	type RangeFilterBody,
} from './schemas';

export const DEFAULT_PER_PAGE = 100;

export function inRange(value: number | null | undefined, range: RangeFilterBody): boolean {
	if (value === null || value === undefined) return false;
	if (range.eq !== undefined) return value === range.eq;
	return (
		(range.lt === undefined || value < range.lt) &&
		(range.lte === undefined || value <= range.lte) &&
		(range.gt === undefined || value > range.gt) &&
		(range.gte === undefined || value >= range.gte)
	);
}

const list = <T>(value: T | T[] | undefined): T[] | undefined =>
	value === undefined ? undefined : Array.isArray(value) ? value : [value];

const containsAll = (text: string, values: string[] | undefined) =>
	values === undefined || values.every((value) => text.toLowerCase().includes(value.toLowerCase()));

/**
 * `ranking.pages` and `ranking.positions` are read against the request's `per_page`: ranking r is
 * on page ceil(r / per_page) at position ((r - 1) mod per_page) + 1 of that page.
 */
export function matchesFilters(
	product: Product,
	filters: EcommerceFiltersBody,
	perPage: number,
): boolean {
	if (!containsAll(product.name, list(filters.name))) return false;
	if (!containsAll(product.url, list(filters.url))) return false;
	const ranges: Array<[RangeFilterBody | undefined, number | null | undefined]> = [
		[filters.full_price, product.full_price],
		[filters.reduced_price, product.reduced_price],
		[filters.rating, product.rating],
		[filters.review_count, product.review_count],
		[filters.bought_last_month, product.metadata?.bought_last_month],
	];
	if (ranges.some(([range, value]) => range !== undefined && !inRange(value, range))) return false;
	if (filters.sponsored !== undefined && product.sponsored !== filters.sponsored) return false;
	if (filters.bestseller !== undefined && product.bestseller !== filters.bestseller) return false;
	if (
		filters.overall_pick !== undefined &&
		(product.metadata?.overall_pick ?? false) !== filters.overall_pick
	) {
		return false;
	}
	if (
		filters.prime !== undefined &&
		product.source === 'amazon' &&
		(product.metadata?.prime ?? false) !== filters.prime
	) {
		return false;
	}
	const pages = list(filters.ranking?.pages);
	if (pages && !pages.includes(Math.ceil(product.ranking / perPage))) return false;
	const positions = list(filters.ranking?.positions);
	if (positions && !positions.includes(((product.ranking - 1) % perPage) + 1)) return false;
	return true;
}

/** The source and keyword of a supported search-page URL, or an error text. */
export function parseSearchUrl(
	raw: string,
): { source: EcommerceSource; keyword: string } | { error: string } {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return { error: 'must be an http(s) URL' };
	}
	const source = ECOMMERCE_SOURCES.find((name) => url.hostname.includes(SEARCH_PAGES[name].host));
	if (!source || !/^https?:$/.test(url.protocol)) {
		return { error: `unsupported source (supported: ${ECOMMERCE_SOURCES.join(', ')})` };
	}
	const rule = SEARCH_PAGES[source];
	if (!rule.path.test(url.pathname)) {
		return { error: `not a search page of ${source}: product pages cannot be processed` };
	}
	return { source, keyword: url.searchParams.get(rule.keywordParam) ?? '' };
}

export interface SearchOutcome {
	/** Every product found after filters and limit. */
	found: Product[];
	page: Product[];
	sources: EcommerceSource[];
	pagination: { current_page: number; page_size: number; total_pages: number };
	summary: {
		total_results: number;
		avg_rating: number;
		review_volume: number;
		avg_review_volume: number;
		products_per_source: Array<{ source: string; count: number }>;
	};
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function summarize(found: Product[], sources: readonly string[]): SearchOutcome['summary'] {
	const reviewVolume = found.reduce((sum, p) => sum + p.review_count, 0);
	return {
		total_results: found.length,
		avg_rating: found.length
			? round2(found.reduce((sum, p) => sum + p.rating, 0) / found.length)
			: 0,
		review_volume: reviewVolume,
		avg_review_volume: found.length ? round2(reviewVolume / found.length) : 0,
		products_per_source: sources.map((source) => ({
			source,
			count: found.filter((p) => p.source === source).length,
		})),
	};
}

/** `request.url`, when set, must already have been checked with parseSearchUrl. */
export function runSearch(request: EcommerceSearchBody, productCount: number): SearchOutcome {
	let keyword = request.keyword ?? '';
	let sources = (list(request.source) as EcommerceSource[] | undefined) ?? [...ECOMMERCE_SOURCES];
	if (request.url !== undefined) {
		const parsed = parseSearchUrl(request.url);
		if ('error' in parsed) throw new Error(parsed.error);
		keyword = parsed.keyword;
		sources = [parsed.source];
	}
	sources = [...new Set(sources)];
	const perPage = request.per_page ?? DEFAULT_PER_PAGE;
	const page = request.page ?? 1;
	const all = generateProducts(keyword, sources, productCount);
	const filtered = request.filters
		? all.filter((product) => matchesFilters(product, request.filters!, perPage))
		: all;
	const found = request.limit === undefined ? filtered : filtered.slice(0, request.limit);
	return {
		found,
		page: found.slice((page - 1) * perPage, page * perPage),
		sources,
		pagination: {
			current_page: page,
			page_size: perPage,
			total_pages: Math.ceil(found.length / perPage),
		},
		summary: summarize(found, sources),
	};
}
