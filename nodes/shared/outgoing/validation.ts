import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../dataObject';

export function invalidParameter(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
): NodeOperationError {
	return new NodeOperationError(node, `${field} ${problem} (item ${itemIndex})`, {
		itemIndex,
		description: `Fix "${field}" of item ${itemIndex}. Nothing was sent to the service for this item.`,
	});
}

export class FieldReader {
	constructor(
		private readonly node: INode,
		private readonly itemIndex: number,
	) {}

	fail(field: string, problem: string): NodeOperationError {
		return invalidParameter(this.node, this.itemIndex, field, problem);
	}

	optionalString(field: string, value: unknown, maxLength?: number): string | undefined {
		if (value === undefined || value === null) return undefined;
		if (typeof value !== 'string' && typeof value !== 'number') {
			throw this.fail(field, `must be text, got ${describe(value)}`);
		}
		const text = String(value).trim();
		if (text === '') return undefined;
		if (maxLength !== undefined && text.length > maxLength) {
			throw this.fail(field, `must be at most ${maxLength} characters, got ${text.length}`);
		}
		return text;
	}

	requiredString(field: string, value: unknown, maxLength?: number): string {
		const text = this.optionalString(field, value, maxLength);
		if (text === undefined) throw this.fail(field, 'is required');
		return text;
	}

	optionalInteger(field: string, value: unknown, bounds: { min?: number; max?: number } = {}) {
		if (value === undefined || value === null || value === '') return undefined;
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isInteger(number)) {
			throw this.fail(field, `must be a whole number, got ${describe(value)}`);
		}
		if (bounds.min !== undefined && number < bounds.min) {
			throw this.fail(field, `must be at least ${bounds.min}, got ${number}`);
		}
		if (bounds.max !== undefined && number > bounds.max) {
			throw this.fail(field, `must be at most ${bounds.max}, got ${number}`);
		}
		return number;
	}

	requiredInteger(field: string, value: unknown, bounds: { min?: number; max?: number } = {}) {
		const number = this.optionalInteger(field, value, bounds);
		if (number === undefined) throw this.fail(field, 'is required');
		return number;
	}

	/**
	 * Accepts `YYYY-MM-DD`, an ISO timestamp (n8n's date picker) or a date object (an expression such
	 * as `$today.minus({ days: 7 })` hands the node a Luxon DateTime) and sends the date part, as
	 * the user's own calendar shows it.
	 */
	optionalDate(field: string, value: unknown): string | undefined {
		const text = this.optionalString(field, dateObjectAsText(value));
		if (text === undefined) return undefined;
		const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(text);
		const date = match ? new Date(Date.UTC(+match[1], +match[2] - 1, +match[3])) : undefined;
		if (
			!match ||
			!date ||
			date.getUTCFullYear() !== +match[1] ||
			date.getUTCMonth() !== +match[2] - 1 ||
			date.getUTCDate() !== +match[3]
		) {
			throw this.fail(field, `must be a date in the form YYYY-MM-DD, got "${text}"`);
		}
		return `${match[1]}-${match[2]}-${match[3]}`;
	}

	optionalUrl(field: string, value: unknown): string | undefined {
		const text = this.optionalString(field, value);
		if (text === undefined) return undefined;
		if (!/^https?:\/\/[^\s/]+/i.test(text)) {
			throw this.fail(field, `must be an http(s) URL, got "${text}"`);
		}
		return text;
	}
}

function describe(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	return `${typeof value} "${String(value)}"`;
}

export interface KeyValuePair {
	name?: string;
	value?: unknown;
}

/** A fixedCollection of `{ name, value }` pairs as an object; an empty name is an error. */
export function pairsToObject(read: FieldReader, field: string, pairs: unknown): IDataObject {
	const result: IDataObject = {};
	if (!Array.isArray(pairs)) return result;
	pairs.forEach((pair: KeyValuePair, position) => {
		const name = typeof pair?.name === 'string' ? pair.name.trim() : '';
		if (name === '') throw read.fail(field, `has a pair without a name (pair ${position + 1})`);
		result[name] = (pair.value ?? '') as IDataObject[string];
	});
	return result;
}

/** Accepts an object (from an expression) or JSON text; `expect` says which JSON shape is valid. */
export function parseJsonParameter(
	read: FieldReader,
	field: string,
	value: unknown,
	expect: 'object' | 'list' | 'object or list',
): IDataObject | IDataObject[] | undefined {
	let parsed = value;
	if (typeof value === 'string') {
		if (value.trim() === '') return undefined;
		try {
			parsed = JSON.parse(value);
		} catch (error) {
			throw read.fail(field, `is not valid JSON: ${(error as Error).message}`);
		}
	}
	if (parsed === undefined || parsed === null) return undefined;
	const isList = Array.isArray(parsed);
	const isRecord = isObject(parsed);
	if (
		(expect === 'object' && !isRecord) ||
		(expect === 'list' && !isList) ||
		(!isList && !isRecord)
	) {
		throw read.fail(field, `must be a JSON ${expect}`);
	}
	if (isList && (parsed as unknown[]).some((element) => !isObject(element))) {
		throw read.fail(field, 'must be a list of JSON objects');
	}
	return parsed as IDataObject | IDataObject[];
}

/** A Luxon DateTime in its own zone, a JS Date in UTC; anything else unchanged. */
function dateObjectAsText(value: unknown): unknown {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : value.toISOString();
	const luxonLike = value as { isValid?: boolean; toISO?: () => string | null } | null;
	if (typeof luxonLike?.toISO === 'function' && luxonLike.isValid === true) {
		return luxonLike.toISO() ?? value;
	}
	return value;
}
