/**
 * What the nodes make of a delivered payload, written out from docs/service-facts.md#callback-payloads
 * rather than taken from the nodes: a review job's `meta_data` (and each review's) is a JSON string, parsed into an
 * object with the string kept as `meta_data_raw`. Other payloads come out as they were sent.
 */
type Json = Record<string, unknown>;

function parseMetaData(record: Json): Json {
	if (typeof record.meta_data !== 'string') return record;
	return { ...record, meta_data: JSON.parse(record.meta_data), meta_data_raw: record.meta_data };
}

export function asDelivered(payload: unknown): Json {
	const body = payload as Json;
	if (body.job_id === undefined || body.request_id !== undefined) return body;
	const job = parseMetaData(body);
	return Array.isArray(job.reviews)
		? { ...job, reviews: (job.reviews as Json[]).map(parseMetaData) }
		: job;
}

/**
 * What every trigger item adds to kind, id and outcome: the delivery's key (its digest is checked
 * for stability by the unit and queue tests, only its shape here) and how many records it carried.
 */
export function deliveryMarks(kind: string, id: unknown, payload: unknown) {
	const body = payload as Json;
	const records = body.reviews ?? body.results;
	return {
		deliveryKey: expect.stringMatching(new RegExp(`^${kind}:${String(id)}:[0-9a-f]+$`)),
		recordCount: Array.isArray(records) ? records.length : 0,
	};
}
