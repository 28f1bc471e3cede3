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
 * Whether a refusal of a request for one schedule may mean that it does not exist: any client
 * error but a refused key (401) and the rate (429). The service documents no not-found answer and
 * its reasons need not name the id (docs/service-facts.md#scheduling-errors), so the list decides
 * (see scheduleListed).
 */
export function mayMeanMissing(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	return status >= 400 && status < 500 && status !== 401 && status !== 429;
}

export async function listSchedules(this: RequestContext): Promise<IDataObject[]> {
	return scheduleResults(await send.call(this, scheduleRequests.list()));
}

/** The schedule as the list shows it, or undefined when the list, the authority, lacks it. */
async function scheduleListed(
	this: RequestContext,
	scheduleId: number,
): Promise<IDataObject | undefined> {
	const listed = await listSchedules.call(this);
	return listed.find((schedule) => Number(schedule.schedule_id) === scheduleId);
}

/**
 * The schedule, or undefined when it does not exist: a read refused as mayMeanMissing says is
 * confirmed against the list, whose own failure is thrown.
 */
export async function findSchedule(
	this: RequestContext,
	scheduleId: number,
): Promise<IDataObject | undefined> {
	try {
		return scheduleResults(await send.call(this, scheduleRequests.get(scheduleId)))[0];
	} catch (error) {
		if (!mayMeanMissing(error)) throw toNodeError(this.getNode(), error, 0);
		return await scheduleListed.call(this, scheduleId);
	}
}

export async function createSchedule(
	this: RequestContext,
	body: IDataObject,
): Promise<IDataObject> {
	return scheduleResults(await send.call(this, scheduleRequests.create(body)))[0] ?? {};
}

/**
 * Deletes the schedule; one that no longer exists is what deleting wanted. A refusal that may
 * mean it is missing stands only while the list still holds it.
 */
export async function deleteSchedule(this: RequestContext, scheduleId: number): Promise<void> {
	try {
		await send.call(this, scheduleRequests.delete(scheduleId));
	} catch (error) {
		if (mayMeanMissing(error) && (await scheduleListed.call(this, scheduleId)) === undefined)
			return;
		throw toNodeError(this.getNode(), error, 0);
	}
}
