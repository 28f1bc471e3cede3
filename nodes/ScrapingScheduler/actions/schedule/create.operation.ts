import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import {
	frequencyField,
	REVIEW_INDEX_ENDPOINT_OPTIONS,
	REVIEW_SCRAPER_ENDPOINT_OPTIONS,
	SERVICE_OPTIONS,
} from '../../../shared/outgoing/schedule/fields';
import { buildScheduleBody } from '../../../shared/outgoing/schedule/body';
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
	const endpoint = parameter('endpoint');
	const useJson = parameter('parametersInput', 'keyValue') === 'json';
	const pairsOf = (name: string, label: string) =>
		pairsToObject(read, label, (parameter(name, {}) as IDataObject).parameter);

	const body = buildScheduleBody(read, {
		service: parameter('service'),
		endpoint,
		frequency: parameter('frequency'),
		scheduleName: parameter('scheduleName', ''),
		queryParams: useJson
			? (parseJsonParameter(
					read,
					'Query Parameters (JSON)',
					parameter('queryParametersJson', '{}'),
					'object',
				) as IDataObject)
			: pairsOf('queryParameters', 'Query Parameters'),
		headers: useJson
			? (parseJsonParameter(
					read,
					'Headers (JSON)',
					parameter('headersJson', '{}'),
					'object',
				) as IDataObject)
			: pairsOf('headers', 'Headers'),
		body:
			endpoint === 'add_bulk'
				? parseJsonParameter(read, 'Profiles (JSON List)', parameter('bulkBody', '[]'), 'list')
				: useJson
					? parseJsonParameter(read, 'Body (JSON)', parameter('bodyJson', '{}'), 'object')
					: pairsOf('body', 'Body'),
	});

	return { request: scheduleRequests.create(body), toOutput: scheduleResults };
}
