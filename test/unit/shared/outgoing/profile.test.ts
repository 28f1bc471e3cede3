import type { IExecuteFunctions } from 'n8n-workflow';

import { readProfile } from '../../../../nodes/shared/outgoing/profile';
import { parameterContext } from '../../helpers';

const read = (parameters: Record<string, unknown>) =>
	readProfile.call(parameterContext([parameters]) as unknown as IExecuteFunctions, 0);

// Its refusals, each naming the field and the item, are test/engine/badInput.test.ts's
// "profile add" cases.
describe('profile parameters (spec section "Review profiles and jobs")', () => {
	it.each([
		[{ query: 'Pizza Berlin' }, { query: 'Pizza Berlin' }],
		[{ placeId: 'ChIJ123' }, { place_id: 'ChIJ123' }],
		[
			{
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
			},
			{
				url: 'https://reviews.example.com/biz/1',
				callback: 'https://n8n.example.com/webhook/x',
				from_date: '2026-01-31',
				blocks: 20,
				diff: 41,
				external_identifier: 'crm-7',
			},
		],
	])('sends %j as %j, without the empty fields', (input, expected) => {
		expect(read(input)).toEqual(expected);
	});
});
