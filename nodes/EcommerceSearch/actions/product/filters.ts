import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../../shared/dataObject';
import type { FieldReader } from '../../../shared/outgoing/validation';

import {
	OPERATOR_LABELS,
	PRODUCT_FILTERS,
	RANGE_OPERATORS,
	type FilterKind,
	type RangeOperator,
} from './filterTable';

const isRangeOperator = (value: unknown): value is RangeOperator =>
	(RANGE_OPERATORS as readonly unknown[]).includes(value);

function toFiniteNumber(read: FieldReader, field: string, value: unknown): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isFinite(number)) {
		throw read.fail(field, `must be a number, got ${JSON.stringify(value) ?? 'nothing'}`);
	}
	return number;
}

/**
 * One range filter from its conditions (`[{ operator, value }]`). The service lets `eq` override
 * every other operator, so a range that mixes them would silently ignore what the user typed:
 * it is refused, as is an operator given twice.
 */
export function buildRange(
	read: FieldReader,
	label: string,
	conditions: unknown,
): IDataObject | undefined {
	if (conditions === undefined || conditions === null) return undefined;
	if (!Array.isArray(conditions)) throw read.fail(label, 'must be a list of conditions');
	const range: IDataObject = {};
	conditions.forEach((condition: IDataObject | undefined, position) => {
		const operator = condition?.operator;
		if (!isRangeOperator(operator)) {
			throw read.fail(
				label,
				`condition ${position + 1} has an unknown operator ${JSON.stringify(operator) ?? 'nothing'} (use one of ${RANGE_OPERATORS.join(', ')})`,
			);
		}
		if (range[operator] !== undefined) {
			throw read.fail(label, `has "${OPERATOR_LABELS[operator]}" more than once`);
		}
		range[operator] = toFiniteNumber(
			read,
			`${label} "${OPERATOR_LABELS[operator]}"`,
			condition?.value,
		);
	});
	const operators = Object.keys(range) as RangeOperator[];
	if (range.eq !== undefined && operators.length > 1) {
		const others = operators.filter((operator) => operator !== 'eq');
		throw read.fail(
			label,
			`combines "Equal" with ${others.map((operator) => `"${OPERATOR_LABELS[operator]}"`).join(', ')}: "Equal" overrides every other operator, so keep either "Equal" alone or only the other conditions`,
		);
	}
	return operators.length > 0 ? range : undefined;
}

/** One value is sent as text, several as a list; empty entries are dropped. */
export function textValues(
	read: FieldReader,
	label: string,
	value: unknown,
): string | string[] | undefined {
	if (value === undefined || value === null) return undefined;
	const values = (Array.isArray(value) ? value : [value]).map((entry, position) =>
		read.optionalString(Array.isArray(value) ? `${label} value ${position + 1}` : label, entry),
	);
	const kept = values.filter((entry): entry is string => entry !== undefined);
	if (kept.length === 0) return undefined;
	return kept.length === 1 ? kept[0] : kept;
}

/** Accepts a number, a list of numbers, or text such as "1, 2, 3"; one value is sent as a number. */
export function positiveIntegers(
	read: FieldReader,
	label: string,
	value: unknown,
): number | number[] | undefined {
	if (value === undefined || value === null) return undefined;
	const entries =
		typeof value === 'string'
			? value
					.split(',')
					.map((entry) => entry.trim())
					.filter((entry) => entry !== '')
			: Array.isArray(value)
				? value
				: [value];
	const numbers = entries.map((entry) => {
		const number = read.optionalInteger(label, entry, { min: 1 });
		if (number === undefined) throw read.fail(label, 'has an empty entry');
		return number;
	});
	const unique = [...new Set(numbers)];
	if (unique.length === 0) return undefined;
	return unique.length === 1 ? unique[0] : unique;
}

export function flagValue(read: FieldReader, label: string, value: unknown): boolean | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	throw read.fail(label, `must be true or false, got ${JSON.stringify(value)}`);
}

const FILTER_READERS: Record<
	FilterKind,
	(read: FieldReader, label: string, value: unknown) => unknown
> = {
	text: textValues,
	range: (read, label, value) =>
		buildRange(read, label, (value as IDataObject | undefined)?.condition),
	flag: flagValue,
	ranking: positiveIntegers,
};

/**
 * The `filters` object (docs/service-facts.md#e-commerce-search) from the node's Filters
 * collection. Only filters that hold a value are sent; `undefined` means no filter at all, so the
 * key is left out of the body.
 */
export function buildFilters(read: FieldReader, input: unknown): IDataObject | undefined {
	if (input === undefined || input === null) return undefined;
	if (!isObject(input)) throw read.fail('Filters', 'must be an object');
	const filters: IDataObject = {};
	const ranking: IDataObject = {};
	for (const { kind, parameter, field, label } of PRODUCT_FILTERS) {
		const sent = FILTER_READERS[kind](read, label, input[parameter]);
		if (sent === undefined) continue;
		if (kind === 'ranking') ranking[field] = sent;
		else filters[field] = sent;
	}
	if (Object.keys(ranking).length > 0) filters.ranking = ranking;

	return Object.keys(filters).length > 0 ? filters : undefined;
}
