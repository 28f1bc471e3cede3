import type { INodeProperties } from 'n8n-workflow';

import { callbackOptions } from '../../../shared/outgoing/callbackReachability';
import { profileField, profileFields } from '../../../shared/outgoing/profileFields';
import {
	frequencyField,
	REVIEW_INDEX_ENDPOINT_OPTIONS,
	REVIEW_SCRAPER_ENDPOINT_OPTIONS,
	SERVICE_OPTIONS,
} from '../../../shared/outgoing/schedule/scheduleOptions';
import { API_FIELDS_FROM } from '../../versions';

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
export const API_FIELDS = 'fields';

export const createProperties: INodeProperties[] = [
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
			"The service adds the target API's own credential: leave the Review Scraper API's token header and the Review Index API's api_key out of this request",
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
		displayOptions: { show: { '@version': [{ _cnd: { gte: API_FIELDS_FROM } }] } },
	},
	{
		...profileField('callback', {
			description:
				'Address that receives the results of every run, for example the production URL of a Scraping Callback Trigger or Webhook node. For a list of profiles: the callback of each profile that has none.',
			placeholder: 'e.g. https://your-n8n.example.com/webhook/reviews',
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
	callbackOptions,
];
