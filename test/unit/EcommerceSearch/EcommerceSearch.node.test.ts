import type { INodeProperties } from 'n8n-workflow';

import { EcommerceSearch } from '../../../nodes/EcommerceSearch/EcommerceSearch.node';
import {
	FLAG_FILTERS,
	RANGE_FILTERS,
	RANGE_OPERATORS,
	RANKING_FILTERS,
	TEXT_FILTERS,
} from '../../../nodes/EcommerceSearch/actions/product/filterTable';

const { description } = new EcommerceSearch();
const property = (name: string) =>
	description.properties.find((candidate) => candidate.name === name) as INodeProperties;

describe('E-Commerce Search description', () => {
	it('offers in the Filters collection exactly the filters that the body builder reads', () => {
		const offered = (property('filters').options as INodeProperties[]).map((option) => option.name);
		const read = [...TEXT_FILTERS, ...RANGE_FILTERS, ...FLAG_FILTERS, ...RANKING_FILTERS].map(
			(filter) => filter.parameter,
		);
		expect([...offered].sort()).toEqual([...read].sort());
	});

	it('offers the five operators on every range filter', () => {
		const filters = property('filters').options as INodeProperties[];
		for (const { parameter } of RANGE_FILTERS) {
			const range = filters.find((option) => option.name === parameter)!;
			const [condition] = range.options as Array<{ values: INodeProperties[] }>;
			const operator = condition.values.find((value) => value.name === 'operator')!;
			// In the editor's alphabetical order of their names: the same five values.
			expect(operator.options!.map((option) => (option as { value: string }).value).sort()).toEqual(
				[...RANGE_OPERATORS].sort(),
			);
			expect(range.description).toContain('"Equal" overrides the other operators');
		}
	});
});
