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
	it('builds the body with only the parts that were given', () => {
		expect(build({ scheduleName: 'Nightly', headers: { 'x-trace': 'a' }, body: {} })).toEqual({
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			schedule_name: 'Nightly',
			headers: { 'x-trace': 'a' },
			query_params: { url: 'https://reviews.example.com/biz/1', callback: CALLBACK },
		});
	});

	it('cleans scheduled add parameters exactly as Profile → Add does', () => {
		const payload = build({
			queryParams: {
				url: ' https://reviews.example.com/biz/1 ',
				from_date: '2026-11-23T12:20:00.000+01:00',
				blocks: '10.0',
				diff: '',
				callback: CALLBACK,
			},
		});
		expect(payload.query_params).toEqual({
			url: 'https://reviews.example.com/biz/1',
			from_date: '2026-11-23',
			blocks: 10,
			callback: CALLBACK,
		});
	});

	it('keeps an add_bulk body as a list of checked profiles', () => {
		const payload = build({
			endpoint: 'add_bulk',
			queryParams: {},
			body: [
				{ url: 'https://a.example.com/x', callback: CALLBACK },
				{ query: 'Pizza', blocks: '5', callback: CALLBACK, from_date: '2026-01-02T00:00:00Z' },
			],
		});
		expect(payload.body).toEqual([
			{ url: 'https://a.example.com/x', callback: CALLBACK },
			{ query: 'Pizza', blocks: 5, callback: CALLBACK, from_date: '2026-01-02' },
		]);
		expect(payload.query_params).toBeUndefined();
	});

	it('accepts riapi with body only', () => {
		expect(
			build({
				service: 'riapi',
				endpoint: 'reviews',
				queryParams: undefined,
				body: { profile_id: 3, callback: CALLBACK },
			}),
		).toMatchObject({
			service: 'riapi',
			endpoint: 'reviews',
			body: { profile_id: 3, callback: CALLBACK },
		});
	});

	describe('a callback is required (REAL-SERVICE: schedules of both APIs need one)', () => {
		it.each([
			[
				{ queryParams: { url: 'https://x.example.com' } },
				'Query Parameters "callback" is required',
			],
			[
				{ queryParams: { url: 'https://x.example.com', callback: '  ' } },
				'Query Parameters "callback" is required',
			],
			[
				{
					endpoint: 'add_bulk',
					queryParams: { callback: CALLBACK },
					body: [{ url: 'https://x.example.com', callback: CALLBACK }, { query: 'q' }],
				},
				'Profiles (JSON List) element 2 "callback" is required',
			],
			[
				{ service: 'riapi', endpoint: 'profiles', queryParams: { query: 'q' }, body: {} },
				'Query Parameters "callback" or Body "callback" is required',
			],
		])('%j → %s', (input, message) => {
			expect(() => build(input)).toThrow(message);
			expect(() => build(input)).toThrow(/only with a callback/);
		});

		it('takes callback or callback_url, in the query or the body, for riapi', () => {
			for (const parts of [
				{ queryParams: { callback: CALLBACK } },
				{ queryParams: {}, body: { callback_url: CALLBACK } },
			]) {
				expect(build({ service: 'riapi', endpoint: 'profiles', ...parts }).service).toBe('riapi');
			}
		});
	});

	describe("profile keys are the service's, spelled as it spells them", () => {
		it.each([
			[
				{ queryParams: { place_ID: 'ChIJ', callback: CALLBACK } },
				'Query Parameters "place_ID" is not a profile field: did you mean "place_id"?',
			],
			[
				{
					endpoint: 'add_bulk',
					queryParams: {},
					body: [
						{ url: 'https://x.example.com', callback: CALLBACK },
						{ place_ID: 'ChIJ', callback: CALLBACK },
					],
				},
				'Profiles (JSON List) element 2 "place_ID" is not a profile field: did you mean "place_id"?',
			],
			[
				{
					endpoint: 'add_bulk',
					queryParams: {},
					body: [{ url: 'https://x.example.com', callback: CALLBACK, note: 'x' }],
				},
				'Profiles (JSON List) element 1 "note" is not a profile field: a profile takes url, query, place_id',
			],
		])('%j → %s', (input, message) => {
			expect(() => build(input)).toThrow(message);
		});
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
				build({
					service: 'riapi',
					endpoint: 'profiles',
					queryParams: { api_key: 'k', url: 'u', callback: CALLBACK },
				}),
			).toThrow(
				'Query Parameters must not contain "api_key": the service adds the review index API key itself',
			);
		});

		it('refuses api_key for rsapi as what it is there: not a profile field', () => {
			expect(() =>
				build({ queryParams: { url: 'https://x.example.com', callback: CALLBACK, api_key: 'k' } }),
			).toThrow('Query Parameters "api_key" is not a profile field');
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
					body: [{ url: 'https://x.example.com', callback: CALLBACK }, { blocks: 3 }],
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
