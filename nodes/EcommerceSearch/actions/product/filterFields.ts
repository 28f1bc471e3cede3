import type { INodeProperties } from 'n8n-workflow';

import { filtersCollection } from '../../../shared/outgoing/descriptions';
import {
	OPERATOR_LABELS,
	PRODUCT_FILTERS,
	RANGE_OPERATORS,
	type ProductFilter,
} from './filterTable';

const rangeConditions: INodeProperties['options'] = [
	{
		displayName: 'Condition',
		name: 'condition',
		values: [
			{
				displayName: 'Operator',
				name: 'operator',
				type: 'options',
				// Listed alphabetically by name, as n8n lists options; the values stay as saved.
				options: RANGE_OPERATORS.map((operator) => ({
					name: OPERATOR_LABELS[operator],
					value: operator,
				})).sort((a, b) => a.name.localeCompare(b.name)),
				default: 'gte',
			},
			{
				displayName: 'Value',
				name: 'value',
				type: 'number',
				default: 0,
			},
		],
	},
];

function filterField(filter: ProductFilter): INodeProperties {
	const { label: displayName, parameter: name, description } = filter;
	switch (filter.kind) {
		case 'text':
			return {
				displayName,
				name,
				type: 'string',
				typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Text' },
				default: [],
				description,
			};
		case 'range':
			return {
				displayName,
				name,
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Condition',
				default: {},
				description: `${description} must meet every condition. "Equal" overrides the other operators, so it cannot be combined with them.`,
				options: rangeConditions,
			};
		case 'flag':
			// Added from the Filters list, a flag means what its name says (only bestsellers); off
			// excludes them. n8n keeps a value set in a collection even when it equals the default,
			// so workflows saved with a flag off keep it off.
			return { displayName, name, type: 'boolean', default: true, description };
		case 'ranking':
			return {
				displayName,
				name,
				type: 'string',
				default: '',
				placeholder: filter.placeholder,
				description,
			};
	}
}

/** The Filters collection: one field per filter, in the editor's alphabetical order. */
export const productFiltersField: INodeProperties = filtersCollection(
	PRODUCT_FILTERS.map(filterField).sort((a, b) =>
		a.displayName < b.displayName ? -1 : a.displayName > b.displayName ? 1 : 0,
	),
);
