/**
 * Scheduling API ({scheduling_url}), key in the `x-api-key` header. Assumed (not documented,
 * docs/service-facts.md#not-documented): the resolved `rsapi` endpoint is
 * `{base_url}/api/v2/profiles/ <endpoint>`; unknown or non-integer ids answer 404 `{ status:
 * 'failed', message: 'Not found', details: null }` (or 400 / 403, config `missingSchedule`; a
 * 400's reason names the id or says only "schedule not found", config `missingScheduleWording`);
 * `schedule_name` is null when not given; `last_request_id` and `last_successful_request_id` are
 * run id strings; DELETE answers the deleted schedule.
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
import type { ScheduleRecord } from '../state';

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
	ctx.rt.state.schedules.set(schedule.schedule_id, {
		schedule,
		target: request.endpoint,
		failedRunsInARow: 0,
		lastRunJobIds: [],
	});
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
				ctx.rt.config.missingScheduleWording === 'plain'
					? 'schedule not found'
					: `Schedule ${ctx.params.schedule_id} does not exist`,
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
	/** Run id, also stored as the schedule's `last_request_id`; null for a run not made. */
	request_id: string | null;
	target: { method: 'POST'; url: string };
	/**
	 * A run the service did not make: the schedule is disabled, or its last run's job is still running
	 * (docs/service-facts.md#schedules-over-time: a run is skipped while the previous one is pending).
	 */
	skipped?: 'disabled' | 'pending';
	/** The target API's answer; for a skipped run, 409 with the reason. */
	response: RouteResult;
}

export interface FireOptions {
	/**
	 * Runs even while the last run's job is pending: a stand-in for many schedules' runs at once
	 * (the burst bench), which one real schedule never makes.
	 */
	ignorePending?: boolean;
}

const PENDING_STATES = new Set(['queued', 'maintenance']);

/** Review job ids in a review API answer: add's `job_id`, or each add_bulk element's. */
function jobIdsOf(body: unknown): number[] {
	const records = Array.isArray(body) ? body : [body];
	return records
		.map((record) => (record as { job_id?: unknown } | null)?.job_id)
		.filter((id): id is number => typeof id === 'number');
}

/** The call a run makes: the stored request to the target API, credentials added. */
function runCall(rt: SimRuntime, record: ScheduleRecord): ApiCall {
	const { schedule, target } = record;
	const headers = Object.fromEntries(
		Object.entries(schedule.payload.headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
	const query = queryString(schedule.payload.query_params);
	const sendsBody =
		Array.isArray(schedule.payload.body) || Object.keys(schedule.payload.body).length > 0;
	return schedule.service === 'rsapi'
		? {
				api: 'review',
				method: 'POST',
				path: `/api/v2/profiles/${target}`,
				query,
				headers: { ...headers, 'spiderman-token': rt.config.token },
				body: sendsBody ? schedule.payload.body : undefined,
			}
		: {
				api: 'reviewIndex',
				method: 'POST',
				path: `/${target}`,
				query: { ...query, api_key: rt.config.apiKey },
				headers,
				body: sendsBody ? schedule.payload.body : undefined,
			};
}

const NO_CREDITS = json(200, {
	success: false,
	status: 402,
	message: 'Request refused: not enough credits',
});

/**
 * Performs the stored call the way the service would on a scheduled run, credentials added: none
 * while the schedule is disabled or its last job still runs; refused, and the schedule disabled,
 * when the account has no credits left; the schedule disabled after its limit of failed runs in a
 * row (docs/service-facts.md#schedules-over-time).
 */
export async function fireSchedule(
	rt: SimRuntime,
	scheduleId: number,
	options: FireOptions = {},
): Promise<FireResult | null> {
	const record = rt.state.schedules.get(scheduleId);
	if (!record) return null;
	const { schedule } = record;
	const target = { method: 'POST' as const, url: schedule.endpoint };
	const skip = (reason: 'disabled' | 'pending'): FireResult => ({
		schedule,
		request_id: null,
		target,
		skipped: reason,
		response: json(409, { message: `run skipped: ${reason}` }),
	});
	if (schedule.disabled) return skip('disabled');
	const stillRunning = record.lastRunJobIds.some((id) =>
		PENDING_STATES.has(rt.state.work.reviewJob.get(id)?.state ?? ''),
	);
	if (stillRunning && !options.ignorePending) return skip('pending');

	const outOfCredits = rt.state.creditsLeft !== null && rt.state.creditsLeft <= 0;
	const response = outOfCredits ? NO_CREDITS : await rt.call(runCall(rt, record));
	const runId = rt.state.newRequestId('schedule-run');
	schedule.last_request_id = runId;
	const body = response.body as { success?: unknown } | null;
	const succeeded =
		!outOfCredits && response.status >= 200 && response.status < 300 && body?.success !== false;
	if (succeeded) {
		schedule.last_successful_run = isoWithoutZone(new Date());
		schedule.last_successful_request_id = runId;
		record.failedRunsInARow = 0;
		record.lastRunJobIds = jobIdsOf(response.body);
		if (rt.state.creditsLeft !== null) {
			const used = Math.max(1, record.lastRunJobIds.length);
			rt.state.creditsLeft = Math.max(0, rt.state.creditsLeft - used);
		}
	} else {
		record.failedRunsInARow++;
		const limit = rt.config.scheduleFailureLimit;
		if (outOfCredits || (limit !== null && record.failedRunsInARow >= limit)) {
			schedule.disabled = true;
		}
	}
	return { schedule, request_id: runId, target, response };
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
