import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../dataObject';

export const PAYLOAD_KINDS = [
	{ name: 'Review Job', value: 'reviewJob' },
	{ name: 'Product Search', value: 'productSearch' },
	{ name: 'Photo Search', value: 'photoSearch' },
	{ name: 'Social Post Scrape', value: 'socialScrape' },
	{ name: 'Video Request', value: 'videoRequest' },
	{ name: 'Review Index Request', value: 'reviewIndex' },
	{ name: 'Unrecognised', value: 'unknown' },
] as const;

export type PayloadKind = (typeof PAYLOAD_KINDS)[number]['value'];

const has = (payload: IDataObject, key: string) => Object.hasOwn(payload, key);

/**
 * The service names no event kinds (service-interface.md, Events), so the kind is read from the
 * payload's shape: which keys it carries, not only their values, so that a failed request whose
 * `results`, `summary` or `pagination` are null is still told apart. The shapes are those of the
 * interface's resources: the social-network scrape and photo-sharing search envelopes, the
 * request status record (video-platform), the e-commerce search envelope (no request_metadata),
 * and the review job payload of REAL-SERVICE.md.
 */
export function recognizePayload(payload: IDataObject): PayloadKind {
	if (!has(payload, 'request_id')) {
		return has(payload, 'job_id') ? 'reviewJob' : 'unknown';
	}
	if (payload.endpoint === 'profiles' || payload.endpoint === 'reviews') return 'reviewIndex';
	const metadata = isObject(payload.request_metadata) ? payload.request_metadata : undefined;
	const isEnvelope = ['results', 'summary', 'pagination'].some((key) => has(payload, key));
	if (metadata) {
		if (has(metadata, 'keyword')) return 'photoSearch';
		if (has(metadata, 'url') || has(metadata, 'get_comments')) {
			if (isEnvelope) return 'socialScrape';
			if (has(payload, 'created_at') || has(payload, 'updated_at')) return 'videoRequest';
		}
		return 'unknown';
	}
	const summary = isObject(payload.summary) ? payload.summary : undefined;
	if (summary && has(summary, 'total_posts')) return 'photoSearch';
	// The e-commerce envelope is the only one without request_metadata.
	if (isEnvelope && !has(payload, 'request_metadata')) return 'productSearch';
	return 'unknown';
}

/** The id the service retries deliveries under: `job_id` for review jobs, `request_id` otherwise. */
export function payloadId(payload: IDataObject): string | undefined {
	const id = payload.request_id ?? payload.job_id;
	return id === undefined || id === null ? undefined : String(id);
}

/** The records a payload carries: reviews of a review job, `results` of every other kind. */
export function payloadRecords(payload: IDataObject): IDataObject[] | undefined {
	const records = payload.reviews ?? payload.results;
	return Array.isArray(records) ? (records as IDataObject[]) : undefined;
}

/**
 * What became of the work a callback reports, the same values for every kind: `pending` is a
 * status that is not final or not known (the work may still end either way).
 */
export type Outcome = 'completed' | 'invalid_url' | 'failed' | 'pending';

const COMPLETED_STATUSES = ['completed', 'complete', 'success', 'succeeded', 'done'];
const FAILED_STATUSES = ['failed', 'login_required', 'error', 'cancelled', 'canceled'];

function outcomeOf(status: string): Outcome {
	if (status === 'invalid_url') return 'invalid_url';
	if (FAILED_STATUSES.includes(status)) return 'failed';
	return COMPLETED_STATUSES.includes(status) ? 'completed' : 'pending';
}

/**
 * A review job posts when its `crawl_status` is `complete` or `invalid_url`; the scrapers' status
 * records end `completed`, `failed` or `login_required` (`created` and `in_progress` are not
 * final). A status this code does not know is `pending`, never taken as completed. Only a payload
 * that carries no status at all is taken as completed, as the service only posts finished work.
 */
export function payloadOutcome(payload: IDataObject): Outcome {
	if (payload.success === false) return 'failed';
	if (typeof payload.crawl_status === 'string') {
		return outcomeOf(payload.crawl_status.toLowerCase());
	}
	if (typeof payload.status === 'string') return outcomeOf(payload.status.toLowerCase());
	return 'completed';
}

function parsedMetaData(record: IDataObject): IDataObject {
	if (typeof record.meta_data !== 'string') return record;
	try {
		const parsed: unknown = JSON.parse(record.meta_data);
		if (typeof parsed !== 'object' || parsed === null) return record;
		return { ...record, meta_data: parsed as IDataObject, meta_data_raw: record.meta_data };
	} catch {
		return record;
	}
}

/**
 * The service sends a review job's `meta_data` (and each review's) as a JSON string: it is parsed
 * into an object, the string kept as `meta_data_raw`. Other kinds are returned as they came.
 */
export function normalizePayload(kind: PayloadKind, payload: IDataObject): IDataObject {
	if (kind !== 'reviewJob') return payload;
	const job = parsedMetaData(payload);
	return Array.isArray(job.reviews)
		? {
				...job,
				reviews: (job.reviews as unknown[]).map((review) =>
					isObject(review) ? parsedMetaData(review) : review,
				) as IDataObject[],
			}
		: job;
}
