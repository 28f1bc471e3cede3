/** In-memory store of everything the simulated service holds. `reset()` replaces it with a new one. */
import {
	ENDPOINTS,
	type CallbackKindName,
	type CallbackKindRow,
	type ScheduleTarget,
} from '../nodes/shared/endpoints';
import { isoWithOffset } from './clock';
import { generateRespondJobs, RESPOND_JOB_FIRST_ID, stableUuid } from './data';
import type {
	ApiName,
	EcommerceEnvelopeBody,
	FaultKind,
	PhotoPostBody,
	PhotoRequestMetadataBody,
	ProfileAddParams,
	RequestStatusValue,
	RespondJobBody,
	ReviewJobReviewBody,
	ScheduleBody,
	SocialPostBody,
	VideoRequestMetadataBody,
} from './schemas';

export const REVIEW_JOB_FIRST_ID = 10_001;

export type JobOrigin = 'add' | 'add_bulk';

export interface ReviewJob {
	job_id: number;
	origin: JobOrigin;
	params: ProfileAddParams;
	state: 'queued' | 'complete' | 'invalid_url' | 'maintenance' | 'failed';
	/** Crawls retried while in maintenance. */
	maintenanceRetries: number;
	created_at: Date;
	reviews: ReviewJobReviewBody[];
	/** When the job was last crawled: on completion, then on every re-sync. */
	last_crawl: Date | null;
	/** Re-syncs posted so far; each adds reviews. */
	resyncs: number;
}

export interface AsyncRequest<Metadata, Result> {
	request_id: string;
	status: RequestStatusValue;
	created_at: Date;
	updated_at: Date;
	credits_used: number;
	/** Credits charged once the request completes. */
	final_credits: number;
	request_metadata: Metadata;
	results: Result[];
}

export type PhotoRequest = AsyncRequest<PhotoRequestMetadataBody, PhotoPostBody>;
export type SocialRequest = AsyncRequest<VideoRequestMetadataBody, SocialPostBody>;
export type VideoRequest = AsyncRequest<VideoRequestMetadataBody, never>;

export interface EcommerceSearch {
	request_id: string;
	created_at: Date;
	/** The full result delivered to the callback. */
	callbackPayload: EcommerceEnvelopeBody;
}

export interface ScheduleRecord {
	schedule: ScheduleBody;
	/** Short endpoint name (`add`, `profiles`, ...) the schedule calls when fired. */
	target: string;
	/** Runs that failed since the last successful one; the service disables it at its limit. */
	failedRunsInARow: number;
	/** Review jobs of the last run: while one is still running, a run is skipped. */
	lastRunJobIds: number[];
}

export interface ReviewIndexJob {
	request_id: string;
	endpoint: ScheduleTarget<'riapi'>;
	created_at: Date;
	callback: string | null;
}

/**
 * The record the service keeps of each kind of work. A kind not named here (a new row of the
 * endpoint table) keeps the common shape of an asynchronous request.
 */
interface KnownWork {
	reviewJob: ReviewJob;
	productSearch: EcommerceSearch;
	photoSearch: PhotoRequest;
	socialScrape: SocialRequest;
	videoRequest: VideoRequest;
	reviewIndex: ReviewIndexJob;
}

export type WorkOf<K extends CallbackKindName> = K extends keyof KnownWork
	? KnownWork[K]
	: AsyncRequest<Record<string, unknown>, unknown>;

/** The work of each callback kind of the endpoint table, by the id its callbacks carry. */
export type WorkMaps = {
	readonly [K in CallbackKindName]: Map<
		CallbackKindRow<K>['idField'] extends 'job_id' ? number : string,
		WorkOf<K>
	>;
};

export interface RequestLogEntry {
	seq: number;
	time: string;
	api: ApiName;
	method: string;
	/** Path after the API prefix, without the query string. */
	path: string;
	query: Record<string, string | string[]>;
	headers: Record<string, string>;
	body: unknown;
	fault?: FaultKind;
	/** `schedule` when the call was made by firing a schedule rather than by an HTTP client. */
	origin?: 'schedule';
	/** HTTP status answered; absent when the connection was reset or the request is in flight. */
	responseStatus?: number;
	/** Refused by the rate limit (429) before reaching the API. */
	rateLimited?: boolean;
}

export interface Counts {
	/** Review profile jobs created, by add, add_bulk or a fired schedule. */
	jobs: number;
	/** The subset of `jobs` created through add_bulk elements. */
	bulkJobs: number;
	/** E-commerce searches plus photo searches. */
	searches: number;
	ecommerceSearches: number;
	photoSearches: number;
	scrapes: number;
	videoRequests: number;
	schedules: number;
	reviewIndexJobs: number;
	/** Requests refused with 429 by the rate limit. */
	rateLimited: number;
}

/** What names the thing a submission is for: a profile, a search, a scrape, a schedule. */
const SUBJECT_FIELDS = ['url', 'query', 'place_id', 'keyword', 'schedule_name'];

function subjectsOf(entry: RequestLogEntry): string[] {
	const asRecord = (value: unknown): Record<string, unknown> =>
		typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
	const records = Array.isArray(entry.body)
		? entry.body.map(asRecord)
		: [{ ...entry.query, ...asRecord(entry.body) }];
	return records.map((record) => {
		const field = SUBJECT_FIELDS.find((name) => typeof record[name] === 'string' && record[name]);
		return field ? String(record[field]) : '(unnamed)';
	});
}

export class SimState {
	readonly work = Object.fromEntries(
		ENDPOINTS.callbackKinds.map(({ value }) => [value, new Map()]),
	) as WorkMaps;
	respondJobs: RespondJobBody[];
	readonly schedules = new Map<number, ScheduleRecord>();
	readonly requestLog: RequestLogEntry[] = [];
	rateLimited = 0;
	/** The account's credits left; null: it never runs out. */
	creditsLeft: number | null = null;

	private nextJobId = REVIEW_JOB_FIRST_ID;
	private nextScheduleId = 1;
	private nextRequestSeq = 1;
	private nextLogSeq = 1;
	private readonly totals = { jobs: 0, bulkJobs: 0, schedules: 0 };

	constructor(respondJobCount: number) {
		this.respondJobs = generateRespondJobs(respondJobCount);
	}

	reseedRespondJobs(count: number): void {
		this.respondJobs = generateRespondJobs(count);
	}

	newJobId(origin: JobOrigin): number {
		this.totals.jobs++;
		if (origin === 'add_bulk') this.totals.bulkJobs++;
		return this.nextJobId++;
	}

	newScheduleId(): number {
		this.totals.schedules++;
		return this.nextScheduleId++;
	}

	newRequestId(namespace: string): string {
		return stableUuid(namespace, this.nextRequestSeq++);
	}

	isKnownJobId(jobId: number): boolean {
		return (
			this.work.reviewJob.has(jobId) ||
			(jobId >= RESPOND_JOB_FIRST_ID && this.respondJobs.some((job) => job.job_id === jobId))
		);
	}

	log(entry: Omit<RequestLogEntry, 'seq' | 'time'>): RequestLogEntry {
		const full = { seq: this.nextLogSeq++, time: new Date().toISOString(), ...entry };
		this.requestLog.push(full);
		return full;
	}

	/**
	 * Submissions that reached the API (POSTs not refused for the rate), per subject: a profile's
	 * url, query or place_id (each element of a bulk request counts), a search's keyword or url, a
	 * schedule's name. A subject counted twice was sent twice.
	 */
	submissions(): Record<string, number> {
		const counts: Record<string, number> = {};
		for (const entry of this.requestLog) {
			if (entry.method !== 'POST' || entry.rateLimited || entry.origin === 'schedule') continue;
			for (const subject of subjectsOf(entry)) counts[subject] = (counts[subject] ?? 0) + 1;
		}
		return counts;
	}

	counts(): Counts {
		const ecommerceSearches = this.work.productSearch.size;
		const photoSearches = this.work.photoSearch.size;
		return {
			jobs: this.totals.jobs,
			bulkJobs: this.totals.bulkJobs,
			searches: ecommerceSearches + photoSearches,
			ecommerceSearches,
			photoSearches,
			scrapes: this.work.socialScrape.size,
			videoRequests: this.work.videoRequest.size,
			schedules: this.totals.schedules,
			reviewIndexJobs: this.work.reviewIndex.size,
			rateLimited: this.rateLimited,
		};
	}
}

export function statusRecord<M>(request: AsyncRequest<M, unknown>) {
	return {
		request_id: request.request_id,
		created_at: isoWithOffset(request.created_at),
		updated_at: isoWithOffset(request.updated_at),
		status: request.status,
		credits_used: request.credits_used,
		request_metadata: request.request_metadata,
	};
}
