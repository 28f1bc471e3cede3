import {
	buildSchedulePayload,
	type ScheduleInput,
} from '../../../nodes/ScrapingScheduler/actions/schedule/payload';
import { FieldReader } from '../../../nodes/shared/validation';
import { testNode } from '../helpers';

const read = new FieldReader(testNode, 2);
const build = (input: Partial<ScheduleInput>) =>
	buildSchedulePayload(read, {
		service: 'rsapi',
		endpoint: 'add',
		frequency: 'daily',
		queryParams: { url: 'https://reviews.example.com/biz/1' },
		...input,
	});

describe('schedule payload (spec 4.1)', () => {
	it('builds the body with only the parts that were given', () => {
		expect(build({ scheduleName: 'Nightly', headers: { 'x-trace': 'a' }, body: {} })).toEqual({
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			schedule_name: 'Nightly',
			headers: { 'x-trace': 'a' },
			query_params: { url: 'https://reviews.example.com/biz/1' },
		});
	});

	it('keeps an add_bulk body as a list of checked profiles', () => {
		const payload = build({
			endpoint: 'add_bulk',
			queryParams: {},
			body: [{ url: 'https://a.example.com/x' }, { query: 'Pizza', blocks: '5' }],
		});
		expect(payload.body).toEqual([
			{ url: 'https://a.example.com/x' },
			{ query: 'Pizza', blocks: 5 },
		]);
		expect(payload.query_params).toBeUndefined();
	});

	it('accepts riapi with body only', () => {
		expect(
			build({
				service: 'riapi',
				endpoint: 'reviews',
				queryParams: undefined,
				body: { profile_id: 3 },
			}),
		).toMatchObject({ service: 'riapi', endpoint: 'reviews', body: { profile_id: 3 } });
	});

	describe('rule 1: required fields', () => {
		it.each([
			[{ service: '' }, 'Service is required (item 2)'],
			[{ service: 'xyz' }, 'Service must be one of rsapi, riapi, got "xyz"'],
			[{ endpoint: '' }, 'Endpoint is required'],
			[{ endpoint: 'profiles' }, 'Endpoint must be one of add, add_bulk for service rsapi'],
			[
				{ service: 'riapi', endpoint: 'add' },
				'Endpoint must be one of profiles, reviews for service riapi',
			],
			[{ frequency: undefined }, 'Frequency is required'],
			[{ frequency: 'hourly' }, 'Frequency must be one of daily, weekly, monthly'],
		])('%j → %s', (input, message) => {
			expect(() => build(input)).toThrow(message);
		});
	});

	it('rule 2: refuses a schedule with neither query parameters nor body', () => {
		expect(() => build({ queryParams: {}, body: {} })).toThrow(
			'Query Parameters or Body is required: the schedule needs parameters for the target endpoint (item 2)',
		);
	});

	describe('rule 3: the service adds its own credential', () => {
		it.each(['spiderman-token', 'Spiderman-Token'])('refuses header %s for rsapi', (header) => {
			expect(() => build({ headers: { [header]: 'x' } })).toThrow(
				`Headers must not contain "${header}": the service adds the review scraper token itself`,
			);
		});

		it('refuses the api_key query parameter for riapi', () => {
			expect(() =>
				build({ service: 'riapi', endpoint: 'profiles', queryParams: { api_key: 'k', url: 'u' } }),
			).toThrow(
				'Query Parameters must not contain "api_key": the service adds the review index API key itself',
			);
		});

		it('lets api_key pass for rsapi (it is not that service credential)', () => {
			expect(
				build({ queryParams: { url: 'https://x.example.com', api_key: 'k' } }).query_params,
			).toEqual({
				url: 'https://x.example.com',
				api_key: 'k',
			});
		});
	});

	describe('rule 4: parameters follow the target API', () => {
		it.each([
			[
				{ queryParams: { callback: 'https://cb.example.com' } },
				'Query Parameters "url", Query Parameters "query" or Query Parameters "place_id" is required',
			],
			[
				{ queryParams: { url: 'https://x.example.com', from_date: '2026/01/01' } },
				'Query Parameters "from_date" must be a date',
			],
			[
				{ queryParams: { query: 'q', external_identifier: 'x'.repeat(256) } },
				'Query Parameters "external_identifier" must be at most 255 characters',
			],
			[
				{ endpoint: 'add_bulk', body: { url: 'https://x.example.com' } },
				'Body must be a non-empty JSON list of profiles for endpoint add_bulk',
			],
			[
				{
					endpoint: 'add_bulk',
					queryParams: {},
					body: [{ url: 'https://x.example.com' }, { blocks: 3 }],
				},
				'Profiles (JSON List) element 2 "url", Profiles (JSON List) element 2 "query" or Profiles (JSON List) element 2 "place_id" is required',
			],
			[
				{ service: 'riapi', endpoint: 'profiles', body: [{ a: 1 }] },
				'Body must be an object for endpoint profiles',
			],
		])('%j → %s', (input, message) => {
			expect(() => build(input)).toThrow(message);
		});
	});
});
