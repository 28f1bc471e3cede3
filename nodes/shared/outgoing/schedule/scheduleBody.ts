import type { IDataObject } from 'n8n-workflow';

import { SCHEDULE_TARGETS, type ScheduleService } from '../../endpoints';
import { checkProfileObject } from '../profile';
import type { FieldReader } from '../validation';
import { FREQUENCIES } from './scheduleOptions';

const SERVICES = Object.keys(SCHEDULE_TARGETS) as ScheduleService[];

/** Where each target API's own credential would go: the service adds it to every run itself. */
const OWN_CREDENTIALS = {
	rsapi: {
		in: 'headers',
		field: 'Headers',
		key: 'spiderman-token',
		what: 'the review scraper token',
	},
	riapi: {
		in: 'queryParams',
		field: 'Query Parameters',
		key: 'api_key',
		what: 'the review index API key',
	},
} as const;

export interface ScheduleInput {
	service: unknown;
	endpoint: unknown;
	frequency: unknown;
	scheduleName?: unknown;
	headers?: IDataObject;
	queryParams?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** How errors name a key of the profile in `queryParams`; by default as a query parameter. */
	profileLabel?: (key: string) => string;
}

export const CALLBACK_REQUIRED =
	'is required: the service runs schedules of the review scraper and review index APIs only with a callback, the address that receives the results of every run';

const isEmpty = (value: IDataObject | IDataObject[] | undefined) =>
	value === undefined ||
	(Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);

/**
 * Builds the POST /schedules body and enforces the rules of docs/service-facts.md#schedules before
 * anything is sent.
 */
export function buildScheduleBody(read: FieldReader, input: ScheduleInput): IDataObject {
	// Rule 1: service, endpoint and frequency are required.
	const service = read.requiredString('Service', input.service);
	if (!(SERVICES as string[]).includes(service)) {
		throw read.fail('Service', `must be one of ${SERVICES.join(', ')}, got "${service}"`);
	}
	const endpoint = read.requiredString('Endpoint', input.endpoint);
	const endpoints: readonly string[] = SCHEDULE_TARGETS[service as ScheduleService];
	if (!endpoints.includes(endpoint)) {
		throw read.fail(
			'Endpoint',
			`must be one of ${endpoints.join(', ')} for service ${service}, got "${endpoint}"`,
		);
	}
	const frequency = read.requiredString('Frequency', input.frequency);
	if (!FREQUENCIES.includes(frequency)) {
		throw read.fail('Frequency', `must be one of ${FREQUENCIES.join(', ')}, got "${frequency}"`);
	}

	// Rule 2: the target needs parameters from somewhere.
	if (isEmpty(input.queryParams) && isEmpty(input.body)) {
		throw read.fail(
			'Query Parameters or Body',
			'is required: the schedule needs parameters for the target endpoint',
		);
	}

	// Rule 3: the service adds the target's own credential itself.
	const own = OWN_CREDENTIALS[service as ScheduleService];
	const given = Object.keys(input[own.in] ?? {}).find((name) => name.toLowerCase() === own.key);
	if (given) {
		throw read.fail(own.field, `must not contain "${given}": the service adds ${own.what} itself`);
	}
	for (const [name, value] of Object.entries(input.headers ?? {})) {
		if (typeof value !== 'string' && typeof value !== 'number') {
			throw read.fail('Headers', `"${name}" must be text`);
		}
	}

	// Rule 4: the parameters follow the target API; only the review profile API is specified, and
	// its profiles are cleaned exactly as Profile → Add cleans them, since every run sends them.
	let body = input.body;
	let queryParams = input.queryParams;
	if (service === 'rsapi' && endpoint === 'add') {
		if (Array.isArray(body)) throw read.fail('Body', 'must be an object for endpoint add');
		const label = input.profileLabel ?? ((key: string) => `Query Parameters "${key}"`);
		queryParams = checkProfileObject(read, queryParams ?? {}, label);
		if (!queryParams.callback) throw read.fail('Query Parameters "callback"', CALLBACK_REQUIRED);
	}
	if (service === 'rsapi' && endpoint === 'add_bulk') {
		if (!Array.isArray(body) || body.length === 0) {
			throw read.fail('Body', 'must be a non-empty JSON list of profiles for endpoint add_bulk');
		}
		body = body.map((element, position) => {
			const label = (key: string) => `Profiles (JSON List) element ${position + 1} "${key}"`;
			const profile = checkProfileObject(read, element, label);
			if (!profile.callback) throw read.fail(label('callback'), CALLBACK_REQUIRED);
			return profile;
		});
	}
	if (service === 'riapi') {
		if (Array.isArray(body)) throw read.fail('Body', `must be an object for endpoint ${endpoint}`);
		const hasCallback = [input.queryParams, body].some((part) =>
			['callback', 'callback_url'].some((key) => {
				const value = part?.[key];
				return typeof value === 'string' && value.trim() !== '';
			}),
		);
		if (!hasCallback) {
			throw read.fail('Query Parameters "callback" or Body "callback"', CALLBACK_REQUIRED);
		}
	}

	const scheduleBody: IDataObject = { service, endpoint, frequency };
	const scheduleName = read.optionalString('Schedule Name', input.scheduleName);
	if (scheduleName) scheduleBody.schedule_name = scheduleName;
	if (!isEmpty(input.headers)) scheduleBody.headers = input.headers;
	if (!isEmpty(queryParams)) scheduleBody.query_params = queryParams;
	if (!isEmpty(body)) scheduleBody.body = body;
	return scheduleBody;
}
