import { scheduleBodyFor } from '../../../nodes/ScheduledScrapeTrigger/schedule';
import { FieldReader } from '../../../nodes/shared/outgoing/validation';
import { testNode } from '../helpers';

describe("the Recurring Reviews Trigger's schedule body", () => {
	const read = new FieldReader(testNode, 0);
	const TRIGGER_CALLBACK = 'https://n8n.example.com/webhook/abc/scheduled?secret=s3';

	it('One Review Profile: every profile field under its service key, the callback its own', () => {
		expect(
			scheduleBodyFor(
				read,
				{
					collect: 'profile',
					frequency: 'weekly',
					profile: {
						url: 'https://reviews.example.com/biz/2',
						query: '',
						place_id: 'ChIJ-2',
						blocks: 0,
						external_identifier: 'weekly-2',
					},
				},
				TRIGGER_CALLBACK,
				'n8n: My workflow',
			),
		).toEqual({
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'weekly',
			schedule_name: 'n8n: My workflow',
			query_params: {
				callback: TRIGGER_CALLBACK,
				url: 'https://reviews.example.com/biz/2',
				place_id: 'ChIJ-2',
				external_identifier: 'weekly-2',
			},
		});
	});

	it('A List of Review Profiles: add_bulk, each profile with the callback', () => {
		expect(
			scheduleBodyFor(
				read,
				{
					collect: 'profileList',
					frequency: 'daily',
					profile: {},
					profiles: '[{"query":"Cafe","blocks":4}]',
				},
				TRIGGER_CALLBACK,
				'n8n: 1',
			),
		).toEqual({
			service: 'rsapi',
			endpoint: 'add_bulk',
			frequency: 'daily',
			schedule_name: 'n8n: 1',
			body: [{ query: 'Cafe', blocks: 4, callback: TRIGGER_CALLBACK }],
		});
	});

	it('Review Index Request: its parameters and the callback', () => {
		expect(
			scheduleBodyFor(
				read,
				{
					collect: 'reviewIndex',
					frequency: 'monthly',
					profile: {},
					reviewIndexEndpoint: 'profiles',
					reviewIndexParameters: '{"name":"Cafe"}',
				},
				TRIGGER_CALLBACK,
				'n8n: 2',
			),
		).toEqual({
			service: 'riapi',
			endpoint: 'profiles',
			frequency: 'monthly',
			schedule_name: 'n8n: 2',
			query_params: { name: 'Cafe', callback: TRIGGER_CALLBACK },
		});
	});
});
