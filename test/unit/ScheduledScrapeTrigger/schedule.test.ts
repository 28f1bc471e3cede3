import { scheduleBodyFor } from '../../../nodes/ScheduledScrapeTrigger/schedule';
import { FieldReader } from '../../../nodes/shared/outgoing/validation';
import { testNode } from '../helpers';

describe("the Recurring Reviews Trigger's schedule body", () => {
	const read = new FieldReader(testNode, 0);
	const TRIGGER_CALLBACK = 'https://n8n.example.com/webhook/abc/scheduled?secret=s3';

	it.each<[string, Parameters<typeof scheduleBodyFor>[1], object]>([
		[
			'One Review Profile: every profile field under its service key, the callback its own',
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
			{
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'weekly',
				query_params: {
					callback: TRIGGER_CALLBACK,
					url: 'https://reviews.example.com/biz/2',
					place_id: 'ChIJ-2',
					external_identifier: 'weekly-2',
				},
			},
		],
		[
			'A List of Review Profiles: add_bulk, each profile with the callback',
			{
				collect: 'profileList',
				frequency: 'daily',
				profile: {},
				profiles: '[{"query":"Cafe","blocks":4}]',
			},
			{
				service: 'rsapi',
				endpoint: 'add_bulk',
				frequency: 'daily',
				body: [{ query: 'Cafe', blocks: 4, callback: TRIGGER_CALLBACK }],
			},
		],
		[
			'Review Index Request: its parameters and the callback',
			{
				collect: 'reviewIndex',
				frequency: 'monthly',
				profile: {},
				reviewIndexEndpoint: 'profiles',
				reviewIndexParameters: '{"name":"Cafe"}',
			},
			{
				service: 'riapi',
				endpoint: 'profiles',
				frequency: 'monthly',
				query_params: { name: 'Cafe', callback: TRIGGER_CALLBACK },
			},
		],
	])('%s', (_name, parameters, body) => {
		expect(scheduleBodyFor(read, parameters, TRIGGER_CALLBACK, 'n8n: My workflow')).toEqual({
			...body,
			schedule_name: 'n8n: My workflow',
		});
	});
});
