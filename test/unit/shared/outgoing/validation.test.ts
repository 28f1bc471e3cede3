import { DateTime } from 'luxon';
import { NodeOperationError } from 'n8n-workflow';

import {
	FieldReader,
	pairsToObject,
	parseJsonParameter,
} from '../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../helpers';

const read = new FieldReader(testNode, 3);

function errorOf(fn: () => unknown): NodeOperationError {
	try {
		fn();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('expected an error');
}

describe('FieldReader', () => {
	it('names the field and the item in every error and sets itemIndex', () => {
		const error = errorOf(() => read.requiredString('Job Name', ''));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Job Name is required (item 3)');
		expect(error.context.itemIndex).toBe(3);
	});

	it.each([
		['2024-02-29', '2024-02-29'],
		['2026-11-22T10:15:00.000+01:00', '2026-11-22'],
		['2026-01-05 08:00', '2026-01-05'],
	])('accepts the date %s as %s', (input, sent) => {
		expect(read.optionalDate('Reviews Since', input)).toBe(sent);
	});

	it('takes the day of a date object as the user sees it: a Luxon DateTime in its zone, a Date in UTC', () => {
		const berlinMidnight = DateTime.fromISO('2026-11-22T00:30:00', { zone: 'Europe/Berlin' });
		expect(read.optionalDate('Reviews Since', berlinMidnight)).toBe('2026-11-22');
		expect(read.optionalDate('Reviews Since', new Date(Date.UTC(2026, 10, 21, 23, 30)))).toBe(
			'2026-11-21',
		);
		expect(
			errorOf(() => read.optionalDate('Reviews Since', DateTime.invalid('x'))).message,
		).toMatch(/^Reviews Since must be text/);
	});

	it.each(['2023-02-29', '2026-13-01', '22/11/2026', 'yesterday', '2026-1-5'])(
		'refuses the malformed date %s',
		(input) => {
			expect(errorOf(() => read.optionalDate('Reviews Since', input)).message).toMatch(
				/^Reviews Since must be a date in the form YYYY-MM-DD/,
			);
		},
	);

	it('treats empty values as absent', () => {
		expect(read.optionalDate('Reviews Since', '')).toBeUndefined();
		expect(read.optionalInteger('Blocks', '')).toBeUndefined();
		expect(read.optionalString('Name', '   ')).toBeUndefined();
	});

	it('accepts numeric strings from expressions as integers and refuses other types', () => {
		expect(read.optionalInteger('Blocks', '25')).toBe(25);
		expect(errorOf(() => read.optionalInteger('Blocks', 'ten')).message).toContain(
			'Blocks must be a whole number, got string "ten"',
		);
		expect(errorOf(() => read.optionalInteger('Blocks', 2.5)).message).toContain('whole number');
		expect(errorOf(() => read.optionalInteger('Blocks', { a: 1 })).message).toContain('an object');
		expect(errorOf(() => read.optionalInteger('Blocks', 0, { min: 1 })).message).toContain(
			'at least 1',
		);
	});

	it('enforces maximum lengths', () => {
		expect(read.optionalString('External Identifier', 'x'.repeat(255), 255)).toHaveLength(255);
		expect(
			errorOf(() => read.optionalString('External Identifier', 'x'.repeat(256), 255)).message,
		).toContain('at most 255 characters, got 256');
	});

	it('only accepts http(s) URLs', () => {
		expect(read.optionalUrl('Callback URL', 'https://example.com/hook')).toBe(
			'https://example.com/hook',
		);
		expect(errorOf(() => read.optionalUrl('Callback URL', 'example.com')).message).toContain(
			'must be an http(s) URL',
		);
	});
});

describe('JSON and key-value parameters', () => {
	it('parses JSON text and accepts objects from expressions', () => {
		expect(parseJsonParameter(read, 'Body (JSON)', '{"a":1}', 'object')).toEqual({ a: 1 });
		expect(parseJsonParameter(read, 'Body (JSON)', { a: 2 }, 'object')).toEqual({ a: 2 });
		expect(parseJsonParameter(read, 'Body (JSON)', '  ', 'object')).toBeUndefined();
	});

	it.each([
		['{"a":', 'object', 'Body (JSON) is not valid JSON'],
		['[1,2]', 'object', 'Body (JSON) must be a JSON object'],
		['{"a":1}', 'list', 'Body (JSON) must be a JSON list'],
		['[1,2]', 'list', 'Body (JSON) must be a list of JSON objects'],
		['"text"', 'object or list', 'Body (JSON) must be a JSON object or list'],
	] as const)('refuses %s where a JSON %s is expected', (value, expected, message) => {
		expect(() => parseJsonParameter(read, 'Body (JSON)', value, expected)).toThrow(message);
	});

	it('turns name/value pairs into an object and refuses a nameless pair', () => {
		expect(
			pairsToObject(read, 'Headers', [
				{ name: 'a', value: '1' },
				{ name: ' b ', value: 2 },
			]),
		).toEqual({
			a: '1',
			b: 2,
		});
		expect(() => pairsToObject(read, 'Headers', [{ name: '', value: '1' }])).toThrow(
			'Headers has a pair without a name (pair 1) (item 3)',
		);
	});
});
