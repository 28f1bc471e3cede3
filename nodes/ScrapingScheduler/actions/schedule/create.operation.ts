import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	profileField,
	profileFields,
	profileLabel,
	readProfileParameters,
	type ProfileKey,
} from '../../../shared/outgoing/profile';
import type { PreparedItem } from '../../../shared/outgoing/router';
import {
	frequencyField,
	REVIEW_INDEX_ENDPOINT_OPTIONS,
	REVIEW_SCRAPER_ENDPOINT_OPTIONS,
	SERVICE_OPTIONS,
} from '../../../shared/outgoing/schedule/fields';
import {
	buildScheduleBody,
	CALLBACK_REQUIRED,
	type ScheduleInput,
} from '../../../shared/outgoing/schedule/scheduleBody';
import { scheduleRequests, scheduleResults } from '../../../shared/outgoing/schedule/client';
import {
	FieldReader,
	pairsToObject,
	parseJsonParameter,
} from '../../../shared/outgoing/validation';

const pairs = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Parameter',
	default: {},
	description,
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
});

/** The form of version 1.1 on: the target API's own fields rather than its raw request. */
const API_FIELDS = 'fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Service',
		name: 'service',
		type: 'options',
		options: SERVICE_OPTIONS,
		default: 'rsapi',
		description: 'API that the schedule calls',
	},
	{
		displayName: 'Endpoint',
		name: 'endpoint',
		type: 'options',
		displayOptions: { show: { service: ['rsapi'] } },
		options: REVIEW_SCRAPER_ENDPOINT_OPTIONS,
		default: 'add',
	},
	{
		displayName: 'Endpoint',
		name: 'endpoint',
		type: 'options',
		displayOptions: { show: { service: ['riapi'] } },
		options: REVIEW_INDEX_ENDPOINT_OPTIONS,
		default: 'profiles',
	},
	frequencyField,
	{
		displayName: 'Schedule Name',
		name: 'scheduleName',
		type: 'string',
		default: '',
	},
	{
		displayName:
			"The service adds the target API's own credential: do not put the spiderman-token header (rsapi) or the api_key query parameter (riapi) here",
		name: 'credentialNotice',
		type: 'notice',
		default: '',
		displayOptions: { hide: { parametersInput: [API_FIELDS] } },
	},
	{
		displayName: 'Specify Parameters',
		name: 'parametersInput',
		type: 'options',
		options: [
			{ name: 'Using Fields Below', value: 'keyValue' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'keyValue',
		description: 'How to give the query parameters, headers and body sent to the target endpoint',
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Specify Parameters',
		name: 'parametersInput',
		type: 'options',
		options: [
			{
				name: 'Using API Fields',
				value: API_FIELDS,
				description:
					"The target API's own fields: a review profile, a list of profiles, or the review index's parameters, and the callback",
			},
			{ name: 'Using Raw JSON', value: 'json' },
			{ name: 'Using Raw Key-Value Pairs', value: 'keyValue' },
		],
		default: API_FIELDS,
		description:
			'How to give what each run sends to the target endpoint: its fields, or (advanced) the raw query parameters, headers and body',
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
	{
		...profileField('callback', {
			description:
				'Address that receives the results of every run, for example the production URL of a Scraping Callback Trigger or Webhook node. For a list of profiles: the callback of each profile that has none.',
			placeholder: 'https://your-n8n.example.com/webhook/reviews',
		}),
		required: true,
		displayOptions: { show: { parametersInput: [API_FIELDS] } },
	},
	...profileFields
		.filter((field) => field.name !== 'callback')
		.map((field) => ({
			...field,
			displayOptions: {
				show: { parametersInput: [API_FIELDS], service: ['rsapi'], endpoint: ['add'] },
			},
		})),
	{
		...pairs(
			'Query Parameters',
			'queryParameters',
			'Sent to the review index as query parameters, besides the callback',
		),
		displayOptions: { show: { parametersInput: [API_FIELDS], service: ['riapi'] } },
	},
	{
		...pairs(
			'Query Parameters',
			'queryParameters',
			'Sent to the target as query parameters, for example url and callback. The service needs a callback: here, or for add_bulk in each profile.',
		),
		displayOptions: { show: { parametersInput: ['keyValue'] } },
	},
	{
		...pairs('Headers', 'headers', 'Sent to the target as headers'),
		displayOptions: { show: { parametersInput: ['keyValue'] } },
	},
	{
		...pairs('Body', 'body', 'Sent to the target as the JSON body'),
		displayOptions: { show: { parametersInput: ['keyValue'] }, hide: { endpoint: ['add_bulk'] } },
	},
	{
		displayName: 'Query Parameters (JSON)',
		name: 'queryParametersJson',
		type: 'json',
		default: '{}',
		displayOptions: { show: { parametersInput: ['json'] } },
	},
	{
		displayName: 'Headers (JSON)',
		name: 'headersJson',
		type: 'json',
		default: '{}',
		displayOptions: { show: { parametersInput: ['json'] } },
	},
	{
		displayName: 'Body (JSON)',
		name: 'bodyJson',
		type: 'json',
		default: '{}',
		displayOptions: { show: { parametersInput: ['json'] }, hide: { endpoint: ['add_bulk'] } },
	},
	{
		displayName: 'Profiles (JSON List)',
		name: 'bulkBody',
		type: 'json',
		default:
			'[\n  {\n    "url": "https://www.example.com/biz/one",\n    "callback": "https://your-n8n.example.com/webhook/reviews"\n  }\n]',
		description:
			'The add_bulk body: a list of profiles, each with a URL, query or place_id (keys in lowercase) and a callback (plus optional from_date, blocks, diff, external_identifier)',
		displayOptions: { show: { service: ['rsapi'], endpoint: ['add_bulk'] } },
	},
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['create'] } },
	properties,
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const read = new FieldReader(this.getNode(), itemIndex);
	const parameter = (name: string, fallback: unknown = undefined) =>
		this.getNodeParameter(name, itemIndex, fallback);
	const service = parameter('service');
	const endpoint = parameter('endpoint');
	const input = parameter('parametersInput', 'keyValue');
	const pairsOf = (name: string, label: string) =>
		pairsToObject(read, label, (parameter(name, {}) as IDataObject).parameter);
	const jsonOf = (name: string, label: string, expect: 'object' | 'list') =>
		parseJsonParameter(read, label, parameter(name, expect === 'list' ? '[]' : '{}'), expect);
	const common = {
		service,
		endpoint,
		frequency: parameter('frequency'),
		scheduleName: parameter('scheduleName', ''),
	};

	let target: Pick<ScheduleInput, 'queryParams' | 'headers' | 'body' | 'profileLabel'>;
	if (input === API_FIELDS) {
		const callback = read.optionalUrl('Callback URL', parameter('callback', ''));
		if (service === 'rsapi' && endpoint === 'add_bulk') {
			// A profile's own callback wins; the field is the callback of those without one.
			const profiles = (jsonOf('bulkBody', 'Profiles (JSON List)', 'list') ?? []) as IDataObject[];
			target = {
				body: profiles.map((profile) =>
					callback && typeof profile === 'object' && profile !== null && !profile.callback
						? { ...profile, callback }
						: profile,
				),
			};
		} else {
			if (!callback) throw read.fail('Callback URL', CALLBACK_REQUIRED);
			// The profile is read here and checked once, by buildScheduleBody, in the form's words.
			target =
				service === 'rsapi'
					? {
							queryParams: {
								...readProfileParameters.call(this, itemIndex),
								callback,
							} as IDataObject,
							profileLabel: (key) => profileLabel(key as ProfileKey),
						}
					: { queryParams: { ...pairsOf('queryParameters', 'Query Parameters'), callback } };
		}
	} else if (input === 'json') {
		target = {
			queryParams: jsonOf(
				'queryParametersJson',
				'Query Parameters (JSON)',
				'object',
			) as IDataObject,
			headers: jsonOf('headersJson', 'Headers (JSON)', 'object') as IDataObject,
			body:
				endpoint === 'add_bulk'
					? (jsonOf('bulkBody', 'Profiles (JSON List)', 'list') as IDataObject[])
					: (jsonOf('bodyJson', 'Body (JSON)', 'object') as IDataObject),
		};
	} else {
		target = {
			queryParams: pairsOf('queryParameters', 'Query Parameters'),
			headers: pairsOf('headers', 'Headers'),
			body:
				endpoint === 'add_bulk'
					? (jsonOf('bulkBody', 'Profiles (JSON List)', 'list') as IDataObject[])
					: pairsOf('body', 'Body'),
		};
	}
	const body = buildScheduleBody(read, { ...common, ...target });
	return { request: scheduleRequests.create(body), toOutput: scheduleResults };
}
