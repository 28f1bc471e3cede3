import { DateTime } from 'luxon';
import { NodeOperationError } from 'n8n-workflow';

import {
	FieldReader,
	pairsToObject,
	parseJsonParameter,
} from '../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../helpers';

const read = new FieldReader(testNode, 3);
const messageOf = (fn: () => unknown) => {
	try {
		fn();
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error('expected an error');
};

// Each refusal as a node makes it (required, whole number, at least, at most, http(s) URL, date,
// invalid JSON, object or list, nameless pair) is also in test/engine/badInput.test.ts.
describe('FieldReader', () => {
	it('names the field and the item in every error and sets itemIndex', () => {
		expect(() => read.requiredString('Job Name', '')).toThrow(
			expect.objectContaining({
				constructor: NodeOperationError,
				message: 'Job Name is required (item 3)',
				context: { itemIndex: 3 },
			}),
		);
	});

	it.each([
		['2024-02-29', '2024-02-29'],
		['2026-11-22T10:15:00.000+01:00', '2026-11-22'],
		['2026-01-05 08:00', '2026-01-05'],
		[DateTime.fromISO('2026-11-22T00:30:00', { zone: 'Europe/Berlin' }), '2026-11-22'],
		[new Date(Date.UTC(2026, 10, 21, 23, 30)), '2026-11-21'],
		['', undefined],
	])('takes the day of %s as the user sees it: %s', (input, sent) => {
		expect(read.optionalDate('Reviews Since', input)).toBe(sent);
	});

	it.each([
		['2023-02-29', /^Reviews Since must be a date in the form YYYY-MM-DD/],
		['2026-13-01', /^Reviews Since must be a date in the form YYYY-MM-DD/],
		['2026-1-5', /^Reviews Since must be a date in the form YYYY-MM-DD/],
		[DateTime.invalid('x'), /^Reviews Since must be text/],
	])('refuses the date %s', (input, message) => {
		expect(messageOf(() => read.optionalDate('Reviews Since', input))).toMatch(message);
	});

	it('reads numbers and text from expressions, empty as absent', () => {
		expect(read.optionalInteger('Blocks', '25')).toBe(25);
		expect(read.optionalInteger('Blocks', '')).toBeUndefined();
		expect(read.optionalString('Name', '   ')).toBeUndefined();
		expect(messageOf(() => read.optionalInteger('Blocks', 2.5))).toContain('whole number');
		expect(messageOf(() => read.optionalInteger('Blocks', { a: 1 }))).toContain('an object');
	});
});

describe('JSON and key-value parameters', () => {
	it('parses JSON text and accepts objects from expressions', () => {
		expect(parseJsonParameter(read, 'Body (JSON)', '{"a":1}', 'object')).toEqual({ a: 1 });
		expect(parseJsonParameter(read, 'Body (JSON)', { a: 2 }, 'object')).toEqual({ a: 2 });
		expect(parseJsonParameter(read, 'Body (JSON)', '  ', 'object')).toBeUndefined();
	});

	it.each([
		['[1,2]', 'list', 'Body (JSON) must be a list of JSON objects'],
		['"text"', 'object or list', 'Body (JSON) must be a JSON object or list'],
	] as const)('refuses %s where a JSON %s is expected', (value, expected, message) => {
		expect(() => parseJsonParameter(read, 'Body (JSON)', value, expected)).toThrow(message);
	});

	it('turns name/value pairs into an object, names trimmed', () => {
		const pairs = [
			{ name: 'a', value: '1' },
			{ name: ' b ', value: 2 },
		];
		expect(pairsToObject(read, 'Headers', pairs)).toEqual({ a: '1', b: 2 });
	});
});
