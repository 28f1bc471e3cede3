/**
 * Control API under /__sim, without auth, for tests that run the simulator in another process
 * (the real-n8n end-to-end suite). Each route mirrors an in-process method of the simulator.
 */
import type { DeliveryRecord } from '../callbacks';
import type { ConfigPatch as ConfigPatchOptions, SimConfig } from '../config';
import type { Fault } from '../faults';
import { json, type RouteResult, type SimulatorUrls } from '../http';
import {
	ConfigPatch,
	FaultSpec,
	type FaultSpecBody,
	formatZodError,
	type RequestStatusRecordBody,
	ResyncRequest,
	type ReviewJobCallbackBody,
	VideoSeed,
	type VideoSeedBody,
} from '../schemas';
import type { Counts, RequestLogEntry } from '../state';
import type { FireOptions, FireResult } from './scheduling';

export interface ControlTarget {
	readonly urls: SimulatorUrls;
	reset(): void;
	requests(): RequestLogEntry[];
	clearRequests(): void;
	injectFault(spec: FaultSpecBody): Fault;
	faults(): Fault[];
	clearFaults(): void;
	fireSchedule(scheduleId: number, options?: FireOptions): Promise<FireResult>;
	setScheduleDisabled(scheduleId: number, disabled: boolean): unknown;
	deleteScheduleBehindTheBack(scheduleId: number): unknown;
	setLastSuccessfulRun(scheduleId: number, at: string | null): unknown;
	deliveries(): DeliveryRecord[];
	waitForDeliveries(count: number, timeoutMs: number): Promise<DeliveryRecord[]>;
	configure(patch: ConfigPatchOptions): SimConfig;
	seedVideoRequest(seed?: VideoSeedBody): RequestStatusRecordBody;
	resyncReviewJob(jobId: number, addReviews?: number): ReviewJobCallbackBody;
	counts(): Counts;
	releaseHeldJobs(): number;
	submissions(): Record<string, number>;
}

export interface ControlRequest {
	params: Record<string, string>;
	query: Record<string, string>;
	body: unknown;
}

export interface ControlRoute {
	method: 'GET' | 'POST' | 'DELETE';
	path: string;
	handler: (sim: ControlTarget, req: ControlRequest) => RouteResult | Promise<RouteResult>;
}

const ok = () => json(200, { ok: true });
const ISO_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const idOf = (req: ControlRequest) => Number(req.params.schedule_id);

/** A change to one schedule: 404 when the service holds no such schedule. */
function scheduleChange(change: () => unknown): RouteResult {
	try {
		return json(200, change());
	} catch (error) {
		return json(404, { message: error.message });
	}
}
const invalid = (details: string) =>
	json(400, { status: 'failed', message: 'Invalid request', details });

export const controlRoutes: ControlRoute[] = [
	{ method: 'GET', path: '/urls', handler: (sim) => json(200, sim.urls) },
	{
		method: 'POST',
		path: '/reset',
		handler: (sim) => {
			sim.reset();
			return ok();
		},
	},
	{
		method: 'POST',
		path: '/jobs/release',
		handler: (sim) => json(200, { released: sim.releaseHeldJobs() }),
	},
	{ method: 'GET', path: '/requests', handler: (sim) => json(200, sim.requests()) },
	{
		method: 'DELETE',
		path: '/requests',
		handler: (sim) => {
			sim.clearRequests();
			return ok();
		},
	},
	{ method: 'GET', path: '/faults', handler: (sim) => json(200, sim.faults()) },
	{
		method: 'POST',
		path: '/faults',
		handler: (sim, req) => {
			const specs = Array.isArray(req.body) ? req.body : [req.body];
			const parsed = specs.map((spec) => FaultSpec.safeParse(spec));
			const failure = parsed.find((result) => !result.success);
			if (failure && !failure.success) return invalid(formatZodError(failure.error));
			return json(
				201,
				parsed.map((result) => sim.injectFault(result.data!)),
			);
		},
	},
	{
		method: 'DELETE',
		path: '/faults',
		handler: (sim) => {
			sim.clearFaults();
			return ok();
		},
	},
	{
		method: 'POST',
		path: '/schedules/:schedule_id/fire',
		// ?ignorePending=true runs even while the last run's job is pending (see FireOptions).
		handler: async (sim, req) => {
			if (!/^\d+$/.test(req.params.schedule_id)) {
				return json(404, { message: 'Schedule not found' });
			}
			try {
				const ignorePending = req.query.ignorePending === 'true';
				return json(200, await sim.fireSchedule(Number(req.params.schedule_id), { ignorePending }));
			} catch (error) {
				return json(404, { message: error.message });
			}
		},
	},
	{
		method: 'DELETE',
		path: '/schedules/:schedule_id',
		// Deleted by the account holder outside n8n: the scheduling API's log does not show it.
		handler: (sim, req) => scheduleChange(() => sim.deleteScheduleBehindTheBack(idOf(req))),
	},
	{
		method: 'POST',
		path: '/schedules/:schedule_id/last-successful-run',
		handler: (sim, req) => {
			const at = (req.body as { at?: unknown } | undefined)?.at;
			if (at !== null && (typeof at !== 'string' || !ISO_WITHOUT_ZONE.test(at))) {
				return invalid('at must be null or YYYY-MM-DDThh:mm:ss');
			}
			return scheduleChange(() => sim.setLastSuccessfulRun(idOf(req), at));
		},
	},
	{
		method: 'POST',
		path: '/schedules/:schedule_id/disabled',
		handler: (sim, req) => {
			const disabled = (req.body as { disabled?: unknown } | undefined)?.disabled;
			if (typeof disabled !== 'boolean') return invalid('disabled must be a boolean');
			try {
				return json(200, sim.setScheduleDisabled(Number(req.params.schedule_id), disabled));
			} catch (error) {
				return json(404, { message: error.message });
			}
		},
	},
	{
		method: 'GET',
		path: '/deliveries',
		handler: async (sim, req) => {
			// ?min=N waits (up to timeoutMs, default 5000) until N deliveries have ended.
			if (req.query.min === undefined) return json(200, sim.deliveries());
			const min = Number(req.query.min);
			const timeoutMs = Number(req.query.timeoutMs ?? 5000);
			if (!Number.isInteger(min) || !Number.isFinite(timeoutMs)) {
				return invalid('min and timeoutMs must be numbers');
			}
			try {
				return json(200, await sim.waitForDeliveries(min, timeoutMs));
			} catch (error) {
				return json(408, { message: error.message, deliveries: sim.deliveries() });
			}
		},
	},
	{
		method: 'POST',
		path: '/config',
		handler: (sim, req) => {
			const parsed = ConfigPatch.safeParse(req.body ?? {});
			if (!parsed.success) return invalid(formatZodError(parsed.error));
			return json(200, sim.configure(parsed.data));
		},
	},
	{
		method: 'POST',
		path: '/video-requests',
		handler: (sim, req) => {
			const parsed = VideoSeed.safeParse(req.body ?? {});
			if (!parsed.success) return invalid(formatZodError(parsed.error));
			return json(201, sim.seedVideoRequest(parsed.data));
		},
	},
	{
		method: 'POST',
		path: '/review-jobs/:job_id/resync',
		// Re-posts a finished job with new content (`addReviews` more reviews), as a re-sync does.
		handler: (sim, req) => {
			const parsed = ResyncRequest.safeParse(req.body ?? {});
			if (!parsed.success) return invalid(formatZodError(parsed.error));
			if (!/^\d+$/.test(req.params.job_id)) return json(404, { message: 'Review job not found' });
			try {
				return json(200, sim.resyncReviewJob(Number(req.params.job_id), parsed.data.addReviews));
			} catch (error) {
				return json(409, { message: error.message });
			}
		},
	},
	{ method: 'GET', path: '/counts', handler: (sim) => json(200, sim.counts()) },
	{ method: 'GET', path: '/submissions', handler: (sim) => json(200, sim.submissions()) },
];
