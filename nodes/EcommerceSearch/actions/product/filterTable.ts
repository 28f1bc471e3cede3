export const RANGE_OPERATORS = ['lt', 'lte', 'gt', 'gte', 'eq'] as const;
export type RangeOperator = (typeof RANGE_OPERATORS)[number];

export const OPERATOR_LABELS: Record<RangeOperator, string> = {
	lt: 'Less Than',
	lte: 'Less Than or Equal',
	gt: 'Greater Than',
	gte: 'Greater Than or Equal',
	eq: 'Equal',
};

/**
 * Every filter of docs/service-facts.md#e-commerce-search: its parameter in the node, its field at
 * the service, its label (in the editor and in errors) and what the editor says of it. The table's
 * order is the order of the fields in the body.
 */
export const PRODUCT_FILTERS = [
	{
		kind: 'text',
		parameter: 'nameContains',
		field: 'name',
		label: 'Name Contains',
		description: 'Keep products whose name contains this text; with several, all must appear',
	},
	{
		kind: 'text',
		parameter: 'urlContains',
		field: 'url',
		label: 'URL Contains',
		description: 'Keep products whose URL contains this text; with several, all must appear',
	},
	{
		kind: 'range',
		parameter: 'fullPrice',
		field: 'full_price',
		label: 'Full Price',
		description: 'The full price',
	},
	{
		kind: 'range',
		parameter: 'reducedPrice',
		field: 'reduced_price',
		label: 'Reduced Price',
		description: 'The reduced price (products without one never match)',
	},
	{
		kind: 'range',
		parameter: 'rating',
		field: 'rating',
		label: 'Rating',
		description: 'The rating',
	},
	{
		kind: 'range',
		parameter: 'reviewCount',
		field: 'review_count',
		label: 'Review Count',
		description: 'The number of reviews',
	},
	{
		kind: 'range',
		parameter: 'boughtLastMonth',
		field: 'bought_last_month',
		label: 'Bought Last Month',
		description: 'The number bought last month',
	},
	{
		kind: 'flag',
		parameter: 'sponsored',
		field: 'sponsored',
		label: 'Sponsored',
		description:
			'Whether to keep only sponsored products (on) or only products that are not sponsored (off)',
	},
	{
		kind: 'flag',
		parameter: 'bestseller',
		field: 'bestseller',
		label: 'Bestseller',
		description: 'Whether to keep only bestsellers (on) or only products that are not (off)',
	},
	{
		kind: 'flag',
		parameter: 'overallPick',
		field: 'overall_pick',
		label: 'Overall Pick',
		description:
			'Whether to keep only "overall pick" products (on) or only products that are not (off)',
	},
	{
		kind: 'flag',
		parameter: 'prime',
		field: 'prime',
		label: 'Prime',
		description:
			'Whether to keep only Prime products (on) or only non-Prime ones (off). Applies to the products of one marketplace source only (Amazon).',
	},
	{
		kind: 'ranking',
		parameter: 'rankingPages',
		field: 'pages',
		label: 'Ranking Pages',
		placeholder: 'e.g. 1, 2',
		description:
			'Keep products shown on these result pages: one number or several separated by commas',
	},
	{
		kind: 'ranking',
		parameter: 'rankingPositions',
		field: 'positions',
		label: 'Ranking Positions',
		placeholder: 'e.g. 1, 2, 3',
		description:
			'Keep products shown at these positions of their page: one number or several separated by commas',
	},
] as const;

export type ProductFilter = (typeof PRODUCT_FILTERS)[number];
export type FilterKind = ProductFilter['kind'];

const filtersOf = <Kind extends FilterKind>(kind: Kind) =>
	PRODUCT_FILTERS.filter(
		(filter): filter is Extract<ProductFilter, { kind: Kind }> => filter.kind === kind,
	);

export const TEXT_FILTERS = filtersOf('text');
export const RANGE_FILTERS = filtersOf('range');
export const FLAG_FILTERS = filtersOf('flag');
export const RANKING_FILTERS = filtersOf('ranking');
