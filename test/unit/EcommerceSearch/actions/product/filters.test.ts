import {
	buildFilters,
	buildRange,
	positiveIntegers,
	textValues,
} from '../../../../../nodes/EcommerceSearch/actions/product/filters';
import {
	RANGE_OPERATORS,
	type RangeOperator,
} from '../../../../../nodes/EcommerceSearch/actions/product/filterTable';
import { FieldReader } from '../../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../../helpers';

const read = new FieldReader(testNode, 3);

/** Every non-empty combination of the five operators: 31 of them. */
function operatorCombinations(): RangeOperator[][] {
	const combinations: RangeOperator[][] = [];
	for (let mask = 1; mask < 2 ** RANGE_OPERATORS.length; mask++) {
		combinations.push(RANGE_OPERATORS.filter((_, bit) => mask & (1 << bit)));
	}
	return combinations;
}

const conditions = (operators: RangeOperator[]) =>
	operators.map((operator, position) => ({ operator, value: 10 + position }));

describe('range filters (spec section "E-commerce search")', () => {
	const combinations = operatorCombinations();
	const withoutEq = combinations.filter((operators) => !operators.includes('eq'));
	const eqWithOthers = combinations.filter(
		(operators) => operators.includes('eq') && operators.length > 1,
	);

	it('covers all 31 combinations', () => {
		expect(withoutEq).toHaveLength(15);
		expect(eqWithOthers).toHaveLength(15);
	});

	it.each(withoutEq.map((operators) => [operators.join('+'), operators]))(
		'sends %s as given',
		(_, operators) => {
			const expected = Object.fromEntries(
				(operators as RangeOperator[]).map((operator, position) => [operator, 10 + position]),
			);
			expect(buildRange(read, 'Full Price', conditions(operators as RangeOperator[]))).toEqual(
				expected,
			);
		},
	);

	it.each(eqWithOthers.map((operators) => [operators.join('+'), operators]))(
		'refuses %s because eq overrides the others',
		(_, operators) => {
			expect(() => buildRange(read, 'Rating', conditions(operators as RangeOperator[]))).toThrow(
				/^Rating combines "Equal" with .*"Equal" overrides every other operator.*\(item 3\)$/,
			);
		},
	);

	it.each([
		['eq alone', [{ operator: 'eq', value: 4.5 }], { eq: 4.5 }],
		[
			'numbers given as text by an expression, zero and negatives',
			[
				{ operator: 'gte', value: '0' },
				{ operator: 'lt', value: -0.5 },
			],
			{ gte: 0, lt: -0.5 },
		],
		['nothing for an empty range', [], undefined],
		['nothing for no range', undefined, undefined],
	])('sends %s', (_name, conditions, range) => {
		expect(buildRange(read, 'Rating', conditions)).toEqual(range);
	});

	it.each([
		[
			[
				{ operator: 'gt', value: 1 },
				{ operator: 'eq', value: 5 },
				{ operator: 'lte', value: 9 },
			],
			'Price combines "Equal" with "Greater Than", "Less Than or Equal"',
		],
		[
			[
				{ operator: 'gt', value: 1 },
				{ operator: 'gt', value: 2 },
			],
			'Price has "Greater Than" more than once (item 3)',
		],
		[[{ operator: 'between', value: 1 }], 'condition 1 has an unknown operator "between"'],
		[[{ operator: 'lt', value: 'cheap' }], 'Price "Less Than" must be a number, got "cheap"'],
		[[{ operator: 'lt' }], 'Price "Less Than" must be a number, got nothing'],
		[[{ operator: 'lt', value: Number.NaN }], 'Price "Less Than" must be a number'],
	])('refuses the conditions %j', (conditions, message) => {
		expect(() => buildRange(read, 'Price', conditions)).toThrow(message);
	});
});

describe('text and number lists', () => {
	it.each([
		['headphones', 'headphones'],
		[['  wireless ', ''], 'wireless'],
		[
			['wireless', 'black'],
			['wireless', 'black'],
		],
		[['', '  '], undefined],
		['', undefined],
		[undefined, undefined],
	])('textValues(%j) is %j', (value, expected) => {
		expect(textValues(read, 'Name Contains', value)).toEqual(expected);
	});

	it('does not split text on commas: a name may contain one', () => {
		expect(textValues(read, 'Name Contains', 'Headphones, black')).toBe('Headphones, black');
	});

	it.each([
		[2, 2],
		['2', 2],
		['1, 2,3', [1, 2, 3]],
		['3, 3', 3],
		[
			[1, '4'],
			[1, 4],
		],
		['', undefined],
		[undefined, undefined],
	])('positiveIntegers(%j) is %j', (value, expected) => {
		expect(positiveIntegers(read, 'Ranking Pages', value)).toEqual(expected);
	});

	it.each([
		['0', 'Ranking Pages must be at least 1, got 0'],
		['1, two', 'Ranking Pages must be a whole number, got string "two"'],
		[1.5, 'Ranking Pages must be a whole number'],
		[[1, null], 'Ranking Pages has an empty entry'],
	])('positiveIntegers refuses %j', (value, message) => {
		expect(() => positiveIntegers(read, 'Ranking Pages', value)).toThrow(message);
	});
});

describe('buildFilters', () => {
	// The other filters are sent through the engine by test/engine/EcommerceSearch/product/search*.workflow.json.
	it('maps url, reduced price, overall pick and prime to the service names, flags given as text too', () => {
		expect(
			buildFilters(read, {
				urlContains: ['/dp/'],
				reducedPrice: { condition: [{ operator: 'gt', value: 5 }] },
				overallPick: true,
				prime: false,
			}),
		).toEqual({ url: '/dp/', reduced_price: { gt: 5 }, overall_pick: true, prime: false });
		expect(buildFilters(read, { prime: 'true', bestseller: 'false' })).toEqual({
			prime: true,
			bestseller: false,
		});
	});

	it('sends nothing for empty filters', () => {
		expect(buildFilters(read, {})).toBeUndefined();
		expect(buildFilters(read, undefined)).toBeUndefined();
		expect(
			buildFilters(read, {
				nameContains: [''],
				urlContains: [],
				fullPrice: {},
				rating: { condition: [] },
				rankingPages: '',
				rankingPositions: ' ',
			}),
		).toBeUndefined();
	});

	it.each([
		[{ sponsored: 'yes' }, 'Sponsored must be true or false, got "yes"'],
		[{ rating: { condition: 'x' } }, 'Rating must be a list of conditions'],
		[{ nameContains: [{}] }, 'Name Contains value 1 must be text'],
	])('refuses %j', (filters, message) => {
		expect(() => buildFilters(read, filters)).toThrow(message);
	});
});
