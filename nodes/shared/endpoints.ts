import type { IHttpRequestMethods } from 'n8n-workflow';

/** The service's APIs, each with its address in a credential (outgoing/transport/apis.ts). */
export type ApiName = 'review' | 'scheduling' | 'ecommerce' | 'video' | 'photo' | 'social';

/** The field of an answer that names the work an endpoint started (`job_id`, `request_id`). */
export type AnswerId = string;

/**
 * One shape a callback payload can have. A key path `a.b` is key `b` of the object at `a`; every
 * condition given must hold.
 */
export interface ShapeRule {
	/** Keys the payload carries, each of them (null values count: a failed request's are). */
	has?: readonly string[];
	/** Groups of keys: the payload carries at least one key of each group. */
	hasOneOfEach?: ReadonlyArray<readonly string[]>;
	/** Keys the payload does not carry. */
	lacks?: readonly string[];
	/** Keys whose value is not an object (absent, null or a plain value). */
	notObjects?: readonly string[];
	/** Keys whose value is one of these. */
	equals?: Readonly<Record<string, ReadonlyArray<string | number | boolean>>>;
	/** Keys whose value is none of these. */
	notEquals?: Readonly<Record<string, ReadonlyArray<string | number | boolean>>>;
}

/** A kind of callback payload: how it is told apart, what identifies it, where its records are. */
export interface CallbackKind {
	value: string;
	/** Its name in the triggers' Kinds option. */
	name: string;
	/**
	 * Its shapes, any one of them. The service names no event kinds (docs/service-facts.md#callbacks),
	 * so the kind is read from the shape. Kinds are tried in the table's order, the first that fits
	 * wins; a shape says what excludes the kinds below it, so that the order seldom matters.
	 */
	shapes: readonly ShapeRule[];
	/** What the service retries deliveries under and a waiting execution resumes on. */
	idField: string;
	/** The list the payload's records are in. */
	records: string;
}

/** One endpoint of the service (docs/service-facts.md). */
export interface Endpoint {
	api: ApiName;
	method: IHttpRequestMethods;
	/** Its path, a path parameter as `:name`. */
	path: string;
	/** The field of its answer that names the work it started, if it starts any. */
	answersWith?: AnswerId;
	/** The kinds of callback its work delivers. */
	callbacks?: readonly string[];
	/**
	 * Keys of its request, and of what the service echoes, that hold a callback address. The
	 * reachability check reads its own row's keys in its request. The redaction hides the secret
	 * (the trigger's, or n8n's resume signature) under every row's keys in whatever comes back:
	 * a delivery's kind is read from its shape, which proves nothing of where it came from.
	 */
	callbackKeys?: readonly string[];
}

export interface EndpointTable {
	/** In the order the triggers' Kinds list and recognition try them. */
	callbackKinds: readonly CallbackKind[];
	endpoints: readonly Endpoint[];
}

/**
 * What a schedule can call (docs/service-facts.md#schedules): each target service's endpoints, by
 * the names the service gives them. The review index API is the target of riapi schedules only.
 */
export const SCHEDULE_TARGETS = {
	rsapi: ['add', 'add_bulk'],
	riapi: ['profiles', 'reviews'],
} as const;

export type ScheduleService = keyof typeof SCHEDULE_TARGETS;
export type ScheduleTarget<S extends ScheduleService = ScheduleService> =
	(typeof SCHEDULE_TARGETS)[S][number];

const ENVELOPE = ['results', 'summary', 'pagination'];
const POST_URL = ['request_metadata.url', 'request_metadata.get_comments'];
/** The review index names its endpoint; a payload that does is of no other kind. */
const REVIEW_INDEX = { endpoint: SCHEDULE_TARGETS.riapi };
const NOT_REVIEW_INDEX = { notEquals: REVIEW_INDEX };

/** The table's rows as written, which the types below read. */
const ROWS = {
	callbackKinds: [
		{
			// The review job record (docs/service-facts.md#callback-payloads).
			value: 'reviewJob',
			name: 'Review Job',
			shapes: [{ has: ['job_id'], lacks: ['request_id'] }],
			idField: 'job_id',
			records: 'reviews',
		},
		{
			// The e-commerce envelope, the only one without request_metadata.
			value: 'productSearch',
			name: 'Product Search',
			shapes: [
				{
					has: ['request_id'],
					lacks: ['request_metadata', 'summary.total_posts'],
					hasOneOfEach: [ENVELOPE],
					...NOT_REVIEW_INDEX,
				},
			],
			idField: 'request_id',
			records: 'results',
		},
		{
			// The photo-sharing envelope, or its status record, by keyword or summary.
			value: 'photoSearch',
			name: 'Photo Search',
			shapes: [
				{ has: ['request_id', 'request_metadata.keyword'], ...NOT_REVIEW_INDEX },
				{
					has: ['request_id', 'summary.total_posts'],
					notObjects: ['request_metadata'],
					...NOT_REVIEW_INDEX,
				},
			],
			idField: 'request_id',
			records: 'results',
		},
		{
			// The social-network envelope: null results, summary or pagination still count.
			value: 'socialScrape',
			name: 'Social Post Scrape',
			shapes: [{ has: ['request_id'], hasOneOfEach: [POST_URL, ENVELOPE], ...NOT_REVIEW_INDEX }],
			idField: 'request_id',
			records: 'results',
		},
		{
			// The video-platform request status record; its submit endpoint is not documented.
			value: 'videoRequest',
			name: 'Video Request',
			shapes: [
				{
					has: ['request_id'],
					hasOneOfEach: [POST_URL, ['created_at', 'updated_at']],
					...NOT_REVIEW_INDEX,
				},
			],
			idField: 'request_id',
			records: 'results',
		},
		{
			// Posted by the review index API, for schedules with service riapi.
			value: 'reviewIndex',
			name: 'Review Index Request',
			shapes: [{ has: ['request_id'], equals: REVIEW_INDEX }],
			idField: 'request_id',
			records: 'results',
		},
	],
	endpoints: [
		{
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			answersWith: 'job_id',
			callbacks: ['reviewJob'],
			callbackKeys: ['callback'],
		},
		{
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add_bulk',
			answersWith: 'job_id',
			callbacks: ['reviewJob'],
			callbackKeys: ['callback'],
		},
		{ api: 'review', method: 'GET', path: '/api/v2/responds/jobs' },
		{ api: 'review', method: 'GET', path: '/api/v2/responds/jobs/:job_id' },
		{ api: 'review', method: 'GET', path: '/api/v2/local_naps/local_nap' },
		{
			// A schedule calls an endpoint of the review scraper (rsapi) or the review index (riapi).
			api: 'scheduling',
			method: 'POST',
			path: '/schedules',
			callbacks: ['reviewJob', 'reviewIndex'],
			callbackKeys: ['callback'],
		},
		{ api: 'scheduling', method: 'GET', path: '/schedules', callbackKeys: ['callback'] },
		{
			api: 'scheduling',
			method: 'GET',
			path: '/schedules/:schedule_id',
			callbackKeys: ['callback'],
		},
		{
			api: 'scheduling',
			method: 'DELETE',
			path: '/schedules/:schedule_id',
			callbackKeys: ['callback'],
		},
		{
			api: 'ecommerce',
			method: 'POST',
			path: '/search',
			answersWith: 'request_id',
			callbacks: ['productSearch'],
			callbackKeys: ['callback'],
		},
		{
			api: 'video',
			method: 'GET',
			path: '/v1/requests/:request_id',
			callbackKeys: ['callback_url'],
		},
		{
			api: 'photo',
			method: 'GET',
			path: '/v1/requests/:request_id',
			callbackKeys: ['callback_url'],
		},
		{
			api: 'photo',
			method: 'POST',
			path: '/v1/search',
			answersWith: 'request_id',
			callbacks: ['photoSearch'],
			callbackKeys: ['callback_url'],
		},
		{
			api: 'photo',
			method: 'GET',
			path: '/v1/search/:request_id',
			callbackKeys: ['callback_url'],
		},
		{
			api: 'social',
			method: 'POST',
			path: '/v1/scrape',
			answersWith: 'request_id',
			callbacks: ['socialScrape'],
			callbackKeys: ['callback_url'],
		},
		{
			api: 'social',
			method: 'GET',
			path: '/v1/scrape/:request_id',
			callbackKeys: ['callback_url'],
		},
	],
} as const satisfies EndpointTable;

export const ENDPOINTS: EndpointTable = ROWS;

/** A kind of callback, by the one name the table, the triggers' output and the simulator use. */
export type CallbackKindName = (typeof ROWS.callbackKinds)[number]['value'];

/** A kind's row as written: its `idField`, its `records`. */
export type CallbackKindRow<K extends CallbackKindName = CallbackKindName> = Extract<
	(typeof ROWS.callbackKinds)[number],
	{ value: K }
>;

type RouteOf<Row> = Row extends { method: infer M extends string; path: infer P extends string }
	? `${M} ${P}`
	: never;

/** An endpoint of `api`, as `endpointRequest` names it: 'GET /v1/requests/:request_id'. */
export type Route<A extends ApiName = ApiName> = RouteOf<
	Extract<(typeof ROWS.endpoints)[number], { api: A }>
>;

/** `table` with more rows: what a test declares in memory (new kinds are tried last). */
export function withRows(table: EndpointTable, rows: Partial<EndpointTable>): EndpointTable {
	return {
		callbackKinds: [...table.callbackKinds, ...(rows.callbackKinds ?? [])],
		endpoints: [...table.endpoints, ...(rows.endpoints ?? [])],
	};
}
