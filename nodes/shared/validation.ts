import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

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

	/** Accepts `YYYY-MM-DD` or an ISO timestamp (what n8n's date picker and `$now` give) and sends the date part. */
	optionalDate(field: string, value: unknown): string | undefined {
		const text = this.optionalString(field, value);
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
