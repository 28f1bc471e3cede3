import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	profileLabel,
	readProfileParameters,
	type ProfileKey,
} from '../../../shared/outgoing/profile';
import type { PreparedItem } from '../../../shared/outgoing/router';
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
import { API_FIELDS, createProperties } from './createFields';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['schedule'], operation: ['create'] } },
	[
		...createProperties,
		...toolDescriptionField(
			"Creates a recurring schedule that sends a scraping request (Service and Endpoint) daily, weekly or monthly under a Schedule Name. Returns the schedule_id; each run's results are delivered to the Callback URL, not by this tool.",
		),
	],
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
