import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { send, toNodeError, type RequestContext, type ServiceRequest } from '../transport';
import { endpointRequest } from '../transport';

/**
 * The scheduling API, for the Scraping Scheduler's operations (which send the requests through the
 * router), the Recurring Reviews Trigger's activation and the schedule list search. Every answer
 * wraps its schedules in `results`.
 */
export const scheduleRequests = {
	list: (): ServiceRequest => endpointRequest('scheduling', 'GET /schedules'),
	get: (scheduleId: number): ServiceRequest =>
		endpointRequest('scheduling', 'GET /schedules/:schedule_id', { schedule_id: scheduleId }),
	create: (body: IDataObject): ServiceRequest =>
		endpointRequest('scheduling', 'POST /schedules', {}, { body }),
	delete: (scheduleId: number): ServiceRequest =>
		endpointRequest('scheduling', 'DELETE /schedules/:schedule_id', { schedule_id: scheduleId }),
};

/** The schedules of an answer of the scheduling API. */
export function scheduleResults(answer: unknown): IDataObject[] {
	const results = (answer as IDataObject | undefined)?.results;
	return Array.isArray(results) ? (results as IDataObject[]) : [];
}

/**
 * Whether the service says the schedule does not exist or cannot be read with this key: 404, 403
 * (docs/service-facts.md#scheduling-errors: access not allowed), or a 400 whose message or details
 * name the schedule (the production service answers a bad request with 400). Either way it is not
 * ours to use.
 */
export function isScheduleMissing(error: unknown, scheduleId: number): boolean {
	if (!(error instanceof NodeApiError)) return false;
	if (error.httpCode === '404' || error.httpCode === '403') return true;
	if (error.httpCode !== '400') return false;
	// The description also names the request path, and with it the id: only the service's words count.
	const body = (error as { errorResponse?: IDataObject }).errorResponse ?? {};
	const said = `${String(body.message ?? '')} ${String(body.details ?? '')}`;
	return new RegExp(`(^|\\D)${scheduleId}(\\D|$)`).test(said);
}

export async function listSchedules(this: RequestContext): Promise<IDataObject[]> {
	return scheduleResults(await send.call(this, scheduleRequests.list()));
}

/** The schedule, or undefined when the service says it does not exist (see isScheduleMissing). */
export async function findSchedule(
	this: RequestContext,
	scheduleId: number,
): Promise<IDataObject | undefined> {
	try {
		return scheduleResults(await send.call(this, scheduleRequests.get(scheduleId)))[0];
	} catch (error) {
		if (isScheduleMissing(error, scheduleId)) return undefined;
		throw toNodeError(this.getNode(), error, 0);
	}
}

export async function createSchedule(
	this: RequestContext,
	body: IDataObject,
): Promise<IDataObject> {
	return scheduleResults(await send.call(this, scheduleRequests.create(body)))[0] ?? {};
}

/** Deletes the schedule; one that no longer exists is what deleting wanted. */
export async function deleteSchedule(this: RequestContext, scheduleId: number): Promise<void> {
	try {
		await send.call(this, scheduleRequests.delete(scheduleId));
	} catch (error) {
		if (!isScheduleMissing(error, scheduleId)) throw toNodeError(this.getNode(), error, 0);
	}
}
