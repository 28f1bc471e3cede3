import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

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

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The service names no event kinds (spec 6), so the kind is read from the payload's shape:
 * the envelopes of spec 2.2–2.5, the status record of 2.3 and the review job payload.
 */
export function recognizePayload(payload: IDataObject): PayloadKind {
	const metadata = isObject(payload.request_metadata) ? payload.request_metadata : undefined;
	const summary = isObject(payload.summary) ? payload.summary : undefined;
	const pagination = isObject(payload.pagination) ? payload.pagination : undefined;
	const hasResults = Array.isArray(payload.results);

	if (payload.job_id !== undefined && payload.request_id === undefined) return 'reviewJob';
	if (payload.request_id === undefined) return 'unknown';
	if (payload.endpoint === 'profiles' || payload.endpoint === 'reviews') return 'reviewIndex';
	if (
		(summary &&
			(summary.products_per_source !== undefined || summary.total_results !== undefined)) ||
		(pagination && pagination.current_page !== undefined)
	) {
		return 'productSearch';
	}
	if ((metadata && metadata.keyword !== undefined) || summary?.total_posts !== undefined) {
		return 'photoSearch';
	}
	if (metadata && metadata.url !== undefined) {
		return hasResults ? 'socialScrape' : 'videoRequest';
	}
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

/** What became of the work a callback reports, the same three values for every kind. */
export type Outcome = 'completed' | 'invalid_url' | 'failed';

const FAILED_STATUSES = ['failed', 'login_required', 'error'];

/**
 * A review job posts when its `crawl_status` is `complete` or `invalid_url`; the scrapers' status
 * records end `completed`, `failed` or `login_required`. Anything that does not say it failed is
 * taken as completed, as the service only posts finished work.
 */
export function payloadOutcome(payload: IDataObject): Outcome {
	const crawlStatus = typeof payload.crawl_status === 'string' ? payload.crawl_status : '';
	const status = typeof payload.status === 'string' ? payload.status.toLowerCase() : '';
	if (crawlStatus.toLowerCase() === 'invalid_url' || status === 'invalid_url') {
		return 'invalid_url';
	}
	if (FAILED_STATUSES.includes(status) || payload.success === false) return 'failed';
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

/**
 * What a trigger starts its workflow with: one item carrying the payload, or with Split Results
 * one per record. A failed job has no records: it still comes out, as one item, so the failure is
 * seen.
 */
export function deliveryItems(
	kind: PayloadKind,
	payload: IDataObject,
	head: IDataObject & { outcome: Outcome },
	splitResults: boolean,
): INodeExecutionData[] {
	const normalized = normalizePayload(kind, payload);
	const records = payloadRecords(normalized);
	if (splitResults && records && (records.length > 0 || head.outcome === 'completed')) {
		return records.map((record) => ({ json: { ...head, record } }));
	}
	return [{ json: { ...head, payload: normalized } }];
}
