import type { IExecuteFunctions } from 'n8n-workflow';

import { readProfile } from '../../../../nodes/shared/outgoing/profile';
import { parameterContext } from '../../helpers';

function read(parameters: Record<string, unknown>, itemIndex = 0) {
	const items = [];
	items[itemIndex] = parameters;
	const context = parameterContext(items) as unknown as IExecuteFunctions;
	return readProfile.call(context, itemIndex);
}

describe('profile parameters (spec section "Review profiles and jobs")', () => {
	it('maps the fields to the query parameter names and leaves out empty ones', () => {
		expect(
			read({
				url: 'https://reviews.example.com/biz/1',
				query: '',
				placeId: '  ',
				callback: 'https://n8n.example.com/webhook/x',
				additionalFields: {
					fromDate: '2026-01-31T00:00:00',
					blocks: '20',
					diff: 41,
					externalIdentifier: 'crm-7',
				},
			}),
		).toEqual({
			url: 'https://reviews.example.com/biz/1',
			callback: 'https://n8n.example.com/webhook/x',
			from_date: '2026-01-31',
			blocks: 20,
			diff: 41,
			external_identifier: 'crm-7',
		});
	});

	it.each([
		[{ query: 'Pizza Berlin' }, { query: 'Pizza Berlin' }],
		[{ placeId: 'ChIJ123' }, { place_id: 'ChIJ123' }],
	])('accepts %j alone', (input, expected) => {
		expect(read(input)).toEqual(expected);
	});

	it.each([
		[{}, 'Profile URL, Search Query or Place ID is required: fill at least one (item 4)'],
		[{ url: 'not a url' }, 'Profile URL must be an http(s) URL'],
		[{ query: 'q', additionalFields: { fromDate: '2026-02-30' } }, 'Reviews Since must be a date'],
		[
			{ query: 'q', additionalFields: { externalIdentifier: 'e'.repeat(256) } },
			'External Identifier must be at most 255 characters',
		],
		[{ query: 'q', additionalFields: { blocks: 'many' } }, 'Latest Reviews Count must be a whole'],
		[{ query: 'q', callback: 'ftp://x' }, 'Callback URL must be an http(s) URL'],
	])('refuses %j naming the field and the item', (input, message) => {
		expect(() => read(input, 4)).toThrow(message);
	});
});
