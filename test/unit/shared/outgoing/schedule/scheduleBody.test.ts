import {
	buildScheduleBody,
	type ScheduleInput,
} from '../../../../../nodes/shared/outgoing/schedule/scheduleBody';
import { FieldReader } from '../../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../../helpers';

const read = new FieldReader(testNode, 2);
const CALLBACK = 'https://n8n.example.com/webhook/reviews';
const build = (input: Partial<ScheduleInput>) =>
	buildScheduleBody(read, {
		service: 'rsapi',
		endpoint: 'add',
		frequency: 'daily',
		queryParams: { url: 'https://reviews.example.com/biz/1', callback: CALLBACK },
		...input,
	});

describe('schedule payload (spec section "Scheduling")', () => {
	// The bodies built (the parts given, add parameters cleaned as Profile → Add cleans them, an
	// add_bulk list, a riapi body) are test/engine/ScrapingScheduler/schedule/create*.workflow.json's.
	it('keeps the headers and name given, and a riapi body alone', () => {
		const named = build({ scheduleName: 'Nightly', headers: { 'x-trace': 'a' }, body: {} });
		expect(named).toMatchObject({ schedule_name: 'Nightly', headers: { 'x-trace': 'a' } });
		const body = { profile_id: 3, callback: CALLBACK };
		const riapi = build({ service: 'riapi', endpoint: 'reviews', queryParams: undefined, body });
		expect(riapi).toMatchObject({ service: 'riapi', body });
		expect(riapi.query_params).toBeUndefined();
	});

	it('takes callback or callback_url, in the query or the body, for riapi', () => {
		for (const parts of [
			{ queryParams: { callback: CALLBACK } },
			{ queryParams: {}, body: { callback_url: CALLBACK } },
		]) {
			expect(build({ service: 'riapi', endpoint: 'profiles', ...parts }).service).toBe('riapi');
		}
	});

	// The refusals test/engine/badInput.test.ts makes through the node (no parameters, the services' own credentials, profile keys
	// misspelt, a missing callback) are not repeated here.
	const url = 'https://x.example.com';
	it.each<[Partial<ScheduleInput>, string]>([
		[{ service: '' }, 'Service is required (item 2)'],
		[{ service: 'xyz' }, 'Service must be one of rsapi, riapi, got "xyz"'],
		[{ frequency: 'hourly' }, 'Frequency must be one of daily, weekly, monthly'],
		[{ endpoint: '' }, 'Endpoint is required'],
		[
			{ service: 'riapi', endpoint: 'add' },
			'Endpoint must be one of profiles, reviews for service riapi',
		],
		[{ frequency: undefined }, 'Frequency is required'],
		[{ queryParams: { url, callback: '  ' } }, 'Query Parameters "callback" is required'],
		[
			{ queryParams: { url, callback: CALLBACK, api_key: 'k' } },
			'Query Parameters "api_key" is not a profile field',
		],
		[
			{ queryParams: { callback: CALLBACK } },
			'Query Parameters "url", Query Parameters "query" or Query Parameters "place_id" is required',
		],
		[
			{ queryParams: { query: 'q', external_identifier: 'x'.repeat(256) } },
			'Query Parameters "external_identifier" must be at most 255 characters',
		],
		[
			{ endpoint: 'add_bulk', body: { url } },
			'Body must be a non-empty JSON list of profiles for endpoint add_bulk',
		],
		[
			{ service: 'riapi', endpoint: 'profiles', body: [{ a: 1 }] },
			'Body must be an object for endpoint profiles',
		],
	])('refuses %j: %s', (input, message) => {
		expect(() => build(input)).toThrow(message);
	});
});
