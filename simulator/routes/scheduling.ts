/**
 * Scheduling API ({scheduling_url}), key in the `x-api-key` header.
 * Assumed (not shown by the spec): the resolved `rsapi` endpoint is `{base_url}/api/v2/profiles/
 * <endpoint>`; unknown or non-integer ids answer 404 `{ status: 'failed', message: 'Not found',
 * details: null }` (or 400 / 403, config `missingSchedule`); `schedule_name` is null when not given; `last_request_id` and
 * `last_successful_request_id` are run id strings; DELETE answers the deleted schedule.
 */
import { isoWithoutZone } from '../clock';
import {
	type ApiDefinition,
	apiKeyError,
	type ApiCall,
	json,
	notFound,
	type RouteContext,
	type RouteResult,
	schedulingError,
	type SimRuntime,
} from '../http';
import { formatZodError, type ScheduleBody, ScheduleCreateRequest } from '../schemas';

const envelope = (schedules: ScheduleBody[]) => ({ status: 'success', results: schedules });

function resolveEndpoint(rt: SimRuntime, service: string, endpoint: string): string {
	return service === 'rsapi'
		? `${rt.urls.baseUrl}/api/v2/profiles/${endpoint}`
		: `${rt.urls.reviewIndexUrl}/${endpoint}`;
}

function create(ctx: RouteContext) {
	const parsed = ScheduleCreateRequest.safeParse(ctx.body);
	if (!parsed.success) {
		return schedulingError(400, 'Invalid request', formatZodError(parsed.error));
	}
	const request = parsed.data;
	const limit = ctx.rt.config.scheduleLimit;
	if (limit !== null && ctx.rt.state.schedules.size >= limit) {
		return schedulingError(
			400,
			'Invalid request',
			`Schedule limit reached: an account can have at most ${limit} schedules`,
		);
	}
	const schedule: ScheduleBody = {
		schedule_id: ctx.rt.state.newScheduleId(),
		frequency: request.frequency,
		service: request.service,
		endpoint: resolveEndpoint(ctx.rt, request.service, request.endpoint),
		schedule_name: request.schedule_name ?? null,
		last_successful_run: null,
		payload: {
			query_params: request.query_params ?? {},
			body: (request.body as ScheduleBody['payload']['body'] | undefined) ?? {},
			headers: request.headers ?? {},
		},
		disabled: false,
		last_request_id: null,
		last_successful_request_id: null,
	};
	ctx.rt.state.schedules.set(schedule.schedule_id, { schedule, target: request.endpoint });
	return json(201, envelope([schedule]));
}

function scheduleId(ctx: RouteContext): number | null {
	return /^\d+$/.test(ctx.params.schedule_id) ? Number(ctx.params.schedule_id) : null;
}

function missing(ctx: RouteContext) {
	switch (ctx.rt.config.missingSchedule) {
		case 400:
			return schedulingError(
				400,
				'Invalid request',
				`Schedule ${ctx.params.schedule_id} does not exist`,
			);
		case 403:
			return schedulingError(403, 'Forbidden');
		default:
			return notFound();
	}
}

function getOne(ctx: RouteContext) {
	const id = scheduleId(ctx);
	const record = id === null ? undefined : ctx.rt.state.schedules.get(id);
	return record ? json(200, envelope([record.schedule])) : missing(ctx);
}

function remove(ctx: RouteContext) {
	const id = scheduleId(ctx);
	const record = id === null ? undefined : ctx.rt.state.schedules.get(id);
	if (!record || id === null) return missing(ctx);
	ctx.rt.state.schedules.delete(id);
	return json(200, envelope([record.schedule]));
}

function queryString(params: Record<string, unknown>): Record<string, string> {
	const query: Record<string, string> = {};
	for (const [key, value] of Object.entries(params)) {
		if (value === undefined || value === null) continue;
		query[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
	}
	return query;
}

export interface FireResult {
	schedule: ScheduleBody;
	/** Run id, also stored as the schedule's `last_request_id`. */
	request_id: string;
	target: { method: 'POST'; url: string };
	response: RouteResult;
}

/** Performs the stored call the way the service would on a scheduled run, credentials added. */
export async function fireSchedule(rt: SimRuntime, scheduleId: number): Promise<FireResult | null> {
	const record = rt.state.schedules.get(scheduleId);
	if (!record) return null;
	const { schedule, target } = record;
	const headers = Object.fromEntries(
		Object.entries(schedule.payload.headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
	const query = queryString(schedule.payload.query_params);
	const sendsBody =
		Array.isArray(schedule.payload.body) || Object.keys(schedule.payload.body).length > 0;
	const call: ApiCall =
		schedule.service === 'rsapi'
			? {
					api: 'review',
					method: 'POST',
					path: `/api/v2/profiles/${target}`,
					query,
					headers: { ...headers, 'spiderman-token': rt.config.token },
					body: sendsBody ? schedule.payload.body : undefined,
				}
			: {
					api: 'review-index',
					method: 'POST',
					path: `/${target}`,
					query: { ...query, api_key: rt.config.apiKey },
					headers,
					body: sendsBody ? schedule.payload.body : undefined,
				};
	const response = await rt.call(call);
	const runId = rt.state.newRequestId('schedule-run');
	schedule.last_request_id = runId;
	const body = response.body as { success?: unknown } | null;
	if (response.status >= 200 && response.status < 300 && body?.success !== false) {
		schedule.last_successful_run = isoWithoutZone(new Date());
		schedule.last_successful_request_id = runId;
	}
	return {
		schedule,
		request_id: runId,
		target: { method: 'POST', url: schedule.endpoint },
		response,
	};
}

export const schedulingApi: ApiDefinition = {
	name: 'scheduling',
	authenticate: apiKeyError,
	error: (status, message, details) => schedulingError(status, message, details ?? null),
	routes: [
		{ method: 'POST', path: '/schedules', handler: create },
		{
			method: 'GET',
			path: '/schedules',
			handler: (ctx) =>
				json(200, envelope([...ctx.rt.state.schedules.values()].map((r) => r.schedule))),
		},
		{ method: 'GET', path: '/schedules/:schedule_id', handler: getOne },
		{ method: 'DELETE', path: '/schedules/:schedule_id', handler: remove },
	],
};
