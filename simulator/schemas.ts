/**
 * The service's interface (docs/service-facts.md; its own document is not part of this repository)
 * written as zod schemas. Request schemas are what the simulator validates; response schemas are
 * strict where the interface lists every field, so a test that parses a body also catches an
 * unexpected field. Shapes the interface does not show are marked "assumed".
 */
import { z } from 'zod';

import {
	SCHEDULE_TARGETS,
	type ScheduleService as ScheduleServiceName,
} from '../nodes/shared/endpoints';

const int = z.number().int();
const count = int.nonnegative();

export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const ISO_WITHOUT_ZONE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
export const ISO_WITH_OFFSET_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;
export const ISO_UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const ISO_UTC_MS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isRealDate(value: string): boolean {
	if (!DATE_RE.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

const httpUrl = z.string().refine(isHttpUrl, 'must be an http(s) URL');
/** 255 characters on the review profile API only (docs/service-facts.md#review-profile-jobs). */
const externalIdentifier = z.string().max(255, 'must be at most 255 characters');
const scraperExternalIdentifier = z.string();

// ------------------------------------------------ errors (docs/service-facts.md#scheduling-errors)

export const SchedulingError = z
	.object({ status: z.literal('failed'), message: z.string(), details: z.string().nullable() })
	.strict();

/** The review API's error body (docs/service-facts.md#review-api-errors). */
export const ReviewError = z
	.object({ success: z.literal(false), status: int, message: z.string() })
	.strict();

// ------------------------------------- review profiles (docs/service-facts.md#review-profile-jobs)

const positiveIntegerLike = z
	.union([z.number(), z.string()])
	.refine(
		(value) =>
			/^\d+$/.test(String(value)) && Number(value) >= 1 && Number.isSafeInteger(Number(value)),
		'must be a positive integer',
	);

const nonEmpty = z.string().min(1, 'must not be empty');

const ProfileAddFields = z
	.object({
		url: nonEmpty.optional(),
		query: nonEmpty.optional(),
		place_id: nonEmpty.optional(),
		from_date: z.string().refine(isRealDate, 'must be a real date in format YYYY-MM-DD').optional(),
		blocks: positiveIntegerLike.optional(),
		diff: positiveIntegerLike.optional(),
		callback: httpUrl.optional(),
		external_identifier: externalIdentifier.optional(),
	})
	.strict();

/**
 * Parameters of POST /api/v2/profiles/add (query string, so values arrive as strings) and of each
 * add_bulk element (where `blocks` and `diff` may also be numbers).
 */
export const ProfileAddQuery = ProfileAddFields.refine(
	(value) => Boolean(value.url || value.query || value.place_id),
	'at least one of url, query, place_id is required',
);

export const ProfileAck = z
	.object({
		success: z.literal(true),
		job_id: int,
		status: z.literal(200),
		message: z.string(),
	})
	.strict();

/** Input keys are echoed as sent, so unknown keys pass through. */
export const BulkResultElement = z
	.object({
		success: z.boolean(),
		job_id: int.nullable(),
		status: int,
		message: z.string(),
	})
	.passthrough();

export const BulkResponse = z.array(BulkResultElement);

export const RespondJob = z
	.object({
		job_id: int,
		profile_url: z.string(),
		review_id: z.string(),
		status: z.string(),
		text: z.string(),
		credits_used: count,
	})
	.strict();

export const RespondJobList = z.array(RespondJob);

export const RatingDistribution = z
	.record(z.string(), z.union([z.number(), z.string()]))
	.nullable();

export const LocalNapSource = z
	.object({
		company_name: z.string().optional(),
		business_name: z.string().optional(),
		phone: z.string().optional(),
		phone_number: z.string().optional(),
		address: z.string().optional(),
		url: z.string().optional(),
		average_rating: z.number().optional(),
		review_count: count.optional(),
		rating_count: count.optional(),
		rating_distribution: RatingDistribution.optional(),
		source_name: z.string().optional(),
	})
	.strict();

export const LocalListingAudit = z
	.object({
		success: z.boolean(),
		status: int,
		company_name: z.string(),
		phone_number: z.string(),
		address: z.string(),
		percentage_complete: int.min(0).max(100),
		local_nap_sources: z.array(LocalNapSource),
	})
	.strict();

export const ReviewRecord = z
	.object({
		review_id: z.string(),
		author: z.string(),
		rating: int.min(1).max(5),
		text: z.string(),
		date: z.string().regex(DATE_RE),
	})
	.strict();

/** A review as the review job callback carries it (docs/service-facts.md#callback-payloads). */
export const ReviewJobReview = z
	.object({
		id: z.string(),
		name: z.string(),
		date: z.string().regex(DATE_RE),
		rating_value: int.min(1).max(5),
		review_text: z.string(),
		url: z.string(),
		profile_picture: z.string().nullable(),
		location: z.string().nullable(),
		review_title: z.string().nullable(),
		verified_order: z.boolean(),
		language_code: z.string(),
		reviewer_title: z.string().nullable(),
		/** A JSON string, as the service sends it. */
		meta_data: z.string(),
		response: z.string().nullable(),
	})
	.strict();

/**
 * The review job record the service posts when a job becomes complete or invalid_url
 * (docs/service-facts.md#callback-payloads); `meta_data` is a JSON string. An invalid_url job has
 * no reviews.
 */
export const ReviewJobCallback = z
	.object({
		success: z.literal(true),
		status: int,
		job_id: int,
		source_url: z.string().nullable(),
		source_name: z.string(),
		place_id: z.string().nullable(),
		external_identifier: z.string().nullable(),
		meta_data: z.string(),
		unique_id: z.string(),
		review_count: count,
		average_rating: z.number().min(0).max(5),
		last_crawl: z.string(),
		crawl_status: z.enum(['complete', 'invalid_url']),
		percentage_complete: int.min(0).max(100),
		result_count: count,
		credits_used: count,
		from_date: z.string().nullable(),
		blocks: int.nullable(),
		reviews: z.array(ReviewJobReview),
	})
	.strict()
	.refine((job) => job.crawl_status === 'complete' || job.reviews.length === 0, {
		message: 'an invalid_url job has no reviews',
	});

// ---------------------------------------------------- scheduling (docs/service-facts.md#schedules)

export const Frequency = z.enum(['daily', 'weekly', 'monthly']);
export const ScheduleService = z.enum(
	Object.keys(SCHEDULE_TARGETS) as [ScheduleServiceName, ...ScheduleServiceName[]],
);

const JsonObject = z.record(z.string(), z.unknown());

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function addNestedIssues(ctx: z.RefinementCtx, prefix: (string | number)[], error: z.ZodError) {
	for (const issue of error.issues) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: [...prefix, ...issue.path],
			message: describeIssue(issue),
		});
	}
}

export const ScheduleCreateRequest = z
	.object({
		service: ScheduleService,
		endpoint: z.string(),
		frequency: Frequency,
		schedule_name: z.string().optional(),
		headers: z.record(z.string(), z.string()).optional(),
		query_params: JsonObject.optional(),
		body: z.unknown().optional(),
	})
	.strict()
	.superRefine((value, ctx) => {
		const allowed: readonly string[] = SCHEDULE_TARGETS[value.service];
		if (!allowed.includes(value.endpoint)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['endpoint'],
				message: `must be one of ${allowed.join(', ')} for service ${value.service}`,
			});
			return;
		}
		if (value.query_params === undefined && value.body === undefined) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: [],
				message: 'either query_params or body must be submitted',
			});
			return;
		}
		if (value.body !== undefined) {
			if (value.endpoint === 'add_bulk') {
				if (!Array.isArray(value.body) || !value.body.every(isPlainObject)) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						path: ['body'],
						message: 'must be a list of objects for endpoint add_bulk',
					});
					return;
				}
			} else if (!isPlainObject(value.body)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['body'],
					message: `must be an object for endpoint ${value.endpoint}`,
				});
				return;
			}
		}
		if (value.service === 'rsapi') {
			const token = Object.keys(value.headers ?? {}).find(
				(name) => name.toLowerCase() === 'spiderman-token',
			);
			if (token !== undefined) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['headers', token],
					message: 'must not be supplied: the service adds the token of rsapi targets itself',
				});
			}
		} else if (value.query_params && 'api_key' in value.query_params) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['query_params', 'api_key'],
				message: 'must not be supplied: the service adds the API key of riapi targets itself',
			});
		}
		if (value.service !== 'rsapi') return;
		if (value.endpoint === 'add') {
			const params = ProfileAddQuery.safeParse(value.query_params ?? {});
			if (!params.success) addNestedIssues(ctx, ['query_params'], params.error);
		} else {
			(value.body as unknown[] | undefined)?.forEach((element, index) => {
				const parsed = ProfileAddQuery.safeParse(element);
				if (!parsed.success) addNestedIssues(ctx, ['body', index], parsed.error);
			});
		}
	});

export const SchedulePayload = z
	.object({
		query_params: JsonObject,
		body: z.union([JsonObject, z.array(JsonObject)]),
		headers: z.record(z.string(), z.string()),
	})
	.strict();

export const Schedule = z
	.object({
		schedule_id: int,
		frequency: Frequency,
		service: ScheduleService,
		endpoint: httpUrl,
		schedule_name: z.string().nullable(),
		last_successful_run: z.string().regex(ISO_WITHOUT_ZONE_RE).nullable(),
		payload: SchedulePayload,
		disabled: z.boolean(),
		// Assumed: the interface only shows null; the simulator sets an opaque run id string.
		last_request_id: z.string().nullable(),
		last_successful_request_id: z.string().nullable(),
	})
	.strict();

export const ScheduleEnvelope = z
	.object({ status: z.literal('success'), results: z.array(Schedule) })
	.strict();

// ------------------------------------- e-commerce search (docs/service-facts.md#e-commerce-search)

/** Assumed: the service does not list source names. `prime` applies to `amazon` only. */
export const ECOMMERCE_SOURCES = ['amazon', 'walmart', 'ebay', 'target', 'bestbuy'] as const;
export type EcommerceSource = (typeof ECOMMERCE_SOURCES)[number];

export const RangeFilter = z
	.object({
		lt: z.number().optional(),
		lte: z.number().optional(),
		gt: z.number().optional(),
		gte: z.number().optional(),
		eq: z.number().optional(),
	})
	.strict();

const stringOrStrings = z.union([z.string(), z.array(z.string()).min(1)], {
	errorMap: () => ({ message: 'must be a string or a non-empty array of strings' }),
});
const numberOrNumbers = z.union([z.number(), z.array(z.number()).min(1)], {
	errorMap: () => ({ message: 'must be a number or a non-empty array of numbers' }),
});

export const EcommerceFilters = z
	.object({
		name: stringOrStrings.optional(),
		url: stringOrStrings.optional(),
		full_price: RangeFilter.optional(),
		reduced_price: RangeFilter.optional(),
		rating: RangeFilter.optional(),
		review_count: RangeFilter.optional(),
		bought_last_month: RangeFilter.optional(),
		sponsored: z.boolean().optional(),
		bestseller: z.boolean().optional(),
		overall_pick: z.boolean().optional(),
		prime: z.boolean().optional(),
		ranking: z
			.object({ pages: numberOrNumbers.optional(), positions: numberOrNumbers.optional() })
			.strict()
			.optional(),
	})
	.strict();

export const EcommerceSearchRequest = z
	.object({
		callback: httpUrl,
		url: z.string().optional(),
		keyword: nonEmpty.optional(),
		source: stringOrStrings.optional(),
		filters: EcommerceFilters.optional(),
		page: int.min(1).optional(),
		per_page: int.min(1).max(500).optional(),
		limit: int.min(1).optional(),
	})
	.strict()
	.superRefine((value, ctx) => {
		if ((value.url === undefined) === (value.keyword === undefined)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: [],
				message: 'exactly one of url and keyword must be sent',
			});
		}
		const sources = value.source === undefined ? [] : [value.source].flat();
		const unknown = sources.filter((s) => !(ECOMMERCE_SOURCES as readonly string[]).includes(s));
		if (unknown.length > 0) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['source'],
				message: `unknown source ${unknown.join(', ')} (valid: ${ECOMMERCE_SOURCES.join(', ')})`,
			});
		}
	});

export const EcommerceProduct = z
	.object({
		unique_id: z.string(),
		url: z.string(),
		source: z.string(),
		name: z.string(),
		thumbnail: z.string(),
		full_price: z.number(),
		reduced_price: z.number().nullable(),
		currency: z.string(),
		rating: z.number(),
		review_count: count,
		bestseller: z.boolean(),
		sponsored: z.boolean(),
		ranking: int.min(1),
		option_count: count.nullable(),
		source_base_url: z.string(),
		metadata: z
			.object({ overall_pick: z.boolean(), bought_last_month: count })
			.passthrough()
			.nullable(),
	})
	.strict();

export const EcommercePagination = z
	.object({ current_page: int, page_size: int, total_pages: count })
	.strict();

export const EcommerceSummary = z
	.object({
		total_results: count,
		avg_rating: z.number(),
		review_volume: count,
		avg_review_volume: z.number(),
		products_per_source: z.array(z.object({ source: z.string(), count: count }).strict()),
	})
	.strict();

export const EcommerceEnvelope = z
	.object({
		request_id: z.string(),
		status: z.literal('success'),
		credits_used: count,
		results: z.array(EcommerceProduct),
		pagination: EcommercePagination,
		summary: EcommerceSummary,
	})
	.strict();

// ------------------------------------------------ scrapers (docs/service-facts.md#social-scrapers)

export const RequestStatus = z.enum([
	'created',
	'in_progress',
	'failed',
	'login_required',
	'completed',
]);

export const SubmitAck = z
	.object({ status: z.literal('created'), message: z.string(), request_id: z.string() })
	.strict();

/** Assumed: the interface only says the e-commerce response may not be synchronous. */
export const EcommerceAck = SubmitAck;

export const PhotoSearchRequest = z
	.object({
		callback_url: httpUrl,
		keyword: nonEmpty,
		external_identifier: scraperExternalIdentifier.optional(),
	})
	.strict();

export const SocialScrapeRequest = z
	.object({
		callback_url: httpUrl,
		url: httpUrl,
		get_comments: z.boolean().optional(),
		external_identifier: scraperExternalIdentifier.optional(),
	})
	.strict();

const integerString = (min: number, max?: number) =>
	z
		.string()
		.regex(/^\d+$/, 'must be an integer')
		.transform(Number)
		.pipe(
			max === undefined
				? int.min(min, `must be at least ${min}`)
				: int.min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
		);

/** Assumed: default per_page 10, maximum 100 (the interface shows neither). */
export const PhotoResultsQuery = z.object({
	page: integerString(1).optional(),
	per_page: integerString(1, 100).optional(),
});

export const PhotoRequestMetadata = z
	.object({
		keyword: z.string(),
		callback_url: z.string(),
		external_identifier: z.string().nullable(),
	})
	.strict();

export const VideoRequestMetadata = z
	.object({
		callback_url: z.string(),
		external_identifier: z.string().nullable(),
		get_comments: z.boolean(),
		url: z.string(),
	})
	.strict();

export const SocialRequestMetadata = VideoRequestMetadata;

const statusRecord = <T extends z.ZodTypeAny>(metadata: T) =>
	z
		.object({
			request_id: z.string(),
			created_at: z.string().regex(ISO_WITH_OFFSET_RE),
			updated_at: z.string().regex(ISO_WITH_OFFSET_RE),
			status: RequestStatus,
			credits_used: count,
			request_metadata: metadata,
		})
		.strict();

export const VideoStatusRecord = statusRecord(VideoRequestMetadata);
export const PhotoStatusRecord = statusRecord(PhotoRequestMetadata);
export const SocialStatusRecord = statusRecord(SocialRequestMetadata);
export const RequestStatusRecord = statusRecord(
	z.union([PhotoRequestMetadata, VideoRequestMetadata]),
);

const media = <T extends z.ZodTypeAny>(type: T) =>
	z.object({ type, thumbnail_url: z.string(), url: z.string(), id: z.string() }).strict();

export const PhotoPost = z
	.object({
		unique_id: z.string(),
		post_id: z.string(),
		description: z.string(),
		hashtags: z.array(z.string()),
		url: z.string(),
		comments_count: count,
		likes_count: count,
		view_count: count.nullable(),
		play_count: count.nullable(),
		upload_date: z.string().regex(DATE_RE),
		author: z
			.object({
				username: z.string(),
				name: z.string(),
				id: z.string(),
				profile_picture_url: z.string().nullable(),
			})
			.strict(),
		tagged_users: z.null(),
		media: z.array(media(z.enum(['image', 'video']))),
		created_at: z.string().regex(ISO_UTC_RE),
		updated_at: z.string().regex(ISO_UTC_RE),
	})
	.strict();

export const PhotoEnvelope = z
	.object({
		request_id: z.string(),
		status: RequestStatus,
		credits_used: count,
		request_metadata: PhotoRequestMetadata,
		results: z.array(PhotoPost),
		summary: z.object({ total_posts: count, unique_user_count: count }).strict(),
		pagination: z
			.object({ total: count, page: int.min(1), per_page: count, total_pages: count })
			.strict(),
	})
	.strict();

export const SocialPost = z
	.object({
		unique_id: z.string().nullable(),
		post_id: z.string(),
		text: z.string(),
		hashtags: z.array(z.string()),
		url: z.string(),
		comments_count: count,
		likes_count: count,
		share_count: count,
		view_count: count.nullable(),
		upload_date: z.string().regex(ISO_UTC_MS_RE),
		author: z
			.object({
				profile_picture_url: z.string().nullable(),
				name: z.string(),
				url: z.string().nullable(),
				id: z.string(),
			})
			.strict(),
		media: z.array(media(z.string())),
		created_at: z.string().regex(ISO_UTC_RE),
		updated_at: z.string().regex(ISO_UTC_RE),
	})
	.strict();

export const SocialEnvelope = z
	.object({
		request_id: z.string(),
		status: RequestStatus,
		credits_used: count,
		request_metadata: SocialRequestMetadata,
		results: z.array(SocialPost),
		summary: z.null(),
		pagination: z.null(),
	})
	.strict();

// ---------------------------------------------------------------- review index (riapi target)

/** Assumed: the interface names the review index API only as the target of riapi schedules. */
export const ReviewIndexAck = SubmitAck;

export const ReviewIndexCallback = z
	.object({
		request_id: z.string(),
		status: z.literal('completed'),
		endpoint: z.enum(SCHEDULE_TARGETS.riapi),
		credits_used: count,
		request_metadata: JsonObject,
		results: z.array(JsonObject),
	})
	.strict();

// ---------------------------------------------------------------- simulator control API

export const API_NAMES = [
	'review',
	'scheduling',
	'ecommerce',
	'video',
	'photo',
	'social',
	'reviewIndex',
] as const;

export const FAULT_KINDS = [
	'429',
	'500',
	'503',
	'reset-before',
	'reset-after',
	'slow',
	'malformed',
	'success-false',
	/** A submission refused in HTTP 200 (`status: "failed"`, a `request_id`, nothing queued). */
	'failed-200',
	/** A refusal in the API's own error shape (HTTP 400; the review API's HTTP 200 `success: false`). */
	'refused',
] as const;

export const FaultSpec = z
	.object({
		method: z.string().optional(),
		path: z.string().optional(),
		api: z.enum(API_NAMES).optional(),
		kind: z.enum(FAULT_KINDS),
		times: int.min(1).optional(),
		retryAfterSeconds: count.optional(),
		delayMs: count.optional(),
		/** `slow` only: carry the request out at once and hold back just the answer. */
		processFirst: z.boolean().optional(),
		/** Only requests whose query string or body holds this text (one item of many, say). */
		match: z.string().min(1).optional(),
		/** Matching requests let through before the fault applies (refuse the second try, say). */
		skip: count.optional(),
	})
	.strict();

export const ConfigPatch = z
	.object({
		token: z.string().min(1).optional(),
		apiKey: z.string().min(1).optional(),
		completionDelayMs: count.optional(),
		holdCompletion: z.boolean().optional(),
		callbackRate: z.number().positive().max(100_000).nullable().optional(),
		callbackConcurrency: int.min(1).nullable().optional(),
		timeScale: z.number().positive().max(1000).optional(),
		maintenanceRetryDelaysMs: z.array(count).max(10).optional(),
		callbackRetry: z
			.object({
				policy: z.enum(['service', 'quick']).optional(),
				serviceDelaysMs: z.array(count).max(10).optional(),
				maxAttempts: int.min(1).optional(),
				baseDelayMs: count.optional(),
				maxDelayMs: count.optional(),
			})
			.strict()
			.optional(),
		productCount: count.optional(),
		photoPostCount: count.optional(),
		respondJobCount: count.optional(),
		ecommerceResponse: z.enum(['envelope', 'ack']).optional(),
		rateLimit: z
			.object({
				review: z.number().positive().nullable().optional(),
				apiKey: z.number().positive().nullable().optional(),
			})
			.strict()
			.optional(),
		reviewErrors: z.enum(['http200', 'status']).optional(),
		scheduleLimit: int.min(0).nullable().optional(),
		missingSchedule: z.union([z.literal(404), z.literal(400), z.literal(403)]).optional(),
		missingScheduleWording: z.enum(['namesId', 'plain']).optional(),
		scheduleFailureLimit: int.min(1).nullable().optional(),
		credits: int.min(0).nullable().optional(),
	})
	.strict();

export const ResyncRequest = z.object({ addReviews: int.min(0).max(100).optional() }).strict();

export const VideoSeed = z
	.object({
		request_id: z.string().min(1).optional(),
		status: RequestStatus.optional(),
		credits_used: count.optional(),
		request_metadata: VideoRequestMetadata.partial().optional(),
	})
	.strict();

// ---------------------------------------------------------------- error formatting

function pathText(path: (string | number)[]): string {
	return path.reduce<string>(
		(text, part) =>
			typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part,
		'',
	);
}

function describeIssue(issue: z.ZodIssue): string {
	if (issue.code === z.ZodIssueCode.invalid_type && issue.received === 'undefined') {
		return 'is required';
	}
	if (issue.code === z.ZodIssueCode.unrecognized_keys) {
		return `unknown field(s) ${issue.keys.join(', ')}`;
	}
	return issue.message;
}

/** One line naming each offending field, e.g. `frequency is required; page: must be at least 1`. */
export function formatZodError(error: z.ZodError): string {
	return error.issues
		.map((issue) => {
			const path = pathText(issue.path);
			const text = describeIssue(issue);
			if (!path) return text;
			return text === 'is required' ? `${path} is required` : `${path}: ${text}`;
		})
		.join('; ');
}

// ---------------------------------------------------------------- types

export type ProfileAddParams = z.infer<typeof ProfileAddFields>;
export type ProfileAckBody = z.infer<typeof ProfileAck>;
export type BulkResultElementBody = z.infer<typeof BulkResultElement>;
export type RespondJobBody = z.infer<typeof RespondJob>;
export type LocalNapSourceBody = z.infer<typeof LocalNapSource>;
export type LocalListingAuditBody = z.infer<typeof LocalListingAudit>;
export type ReviewRecordBody = z.infer<typeof ReviewRecord>;
export type ReviewJobCallbackBody = z.infer<typeof ReviewJobCallback>;
export type ReviewJobReviewBody = z.infer<typeof ReviewJobReview>;
export type ScheduleCreateBody = z.infer<typeof ScheduleCreateRequest>;
export type ScheduleBody = z.infer<typeof Schedule>;
export type ScheduleEnvelopeBody = z.infer<typeof ScheduleEnvelope>;
export type RangeFilterBody = z.infer<typeof RangeFilter>;
export type EcommerceFiltersBody = z.infer<typeof EcommerceFilters>;
export type EcommerceSearchBody = z.infer<typeof EcommerceSearchRequest>;
export type EcommerceProductBody = z.infer<typeof EcommerceProduct>;
export type EcommerceEnvelopeBody = z.infer<typeof EcommerceEnvelope>;
export type RequestStatusValue = z.infer<typeof RequestStatus>;
export type SubmitAckBody = z.infer<typeof SubmitAck>;
export type PhotoSearchBody = z.infer<typeof PhotoSearchRequest>;
export type SocialScrapeBody = z.infer<typeof SocialScrapeRequest>;
export type PhotoRequestMetadataBody = z.infer<typeof PhotoRequestMetadata>;
export type VideoRequestMetadataBody = z.infer<typeof VideoRequestMetadata>;
export type SocialRequestMetadataBody = z.infer<typeof SocialRequestMetadata>;
export type RequestStatusRecordBody = z.infer<typeof RequestStatusRecord>;
export type PhotoPostBody = z.infer<typeof PhotoPost>;
export type PhotoEnvelopeBody = z.infer<typeof PhotoEnvelope>;
export type SocialPostBody = z.infer<typeof SocialPost>;
export type SocialEnvelopeBody = z.infer<typeof SocialEnvelope>;
export type ReviewIndexCallbackBody = z.infer<typeof ReviewIndexCallback>;
export type ApiName = (typeof API_NAMES)[number];
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultSpecBody = z.infer<typeof FaultSpec>;
export type VideoSeedBody = z.infer<typeof VideoSeed>;
