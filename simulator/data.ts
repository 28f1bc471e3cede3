/**
 * Deterministic fake data: the same inputs always give the same records, so tests can rely on
 * counts and on filters matching known products.
 */
import { createHash } from 'node:crypto';

import type { ScheduleTarget } from '../nodes/shared/endpoints';
import { isoDate } from './clock';
import type {
	EcommerceProductBody,
	EcommerceSource,
	LocalListingAuditBody,
	LocalNapSourceBody,
	PhotoPostBody,
	RespondJobBody,
	ReviewJobReviewBody,
	ReviewRecordBody,
	SocialPostBody,
} from './schemas';

export type Random = () => number;

export function seedOf(...parts: Array<string | number>): number {
	return createHash('sha1').update(parts.join('\u0000')).digest().readUInt32LE(0);
}

/** mulberry32 */
export function seededRandom(seed: number): Random {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const between = (random: Random, min: number, max: number) =>
	min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: Random, items: readonly T[]): T =>
	items[Math.floor(random() * items.length)];
const chance = (random: Random, probability: number) => random() < probability;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** A UUID-shaped id derived from a namespace and a counter, stable across runs. */
export function stableUuid(namespace: string, n: number): string {
	const hex = createHash('sha1').update(`${namespace}:${n}`).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const slug = (text: string) =>
	text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');

/** Generated content is dated relative to a fixed day so it never depends on the clock. */
export const DATA_EPOCH = new Date('2025-06-01T12:00:00.000Z');
const daysBefore = (days: number) => new Date(DATA_EPOCH.getTime() - days * 86_400_000);

const FIRST_NAMES = [
	'Ana',
	'Ben',
	'Chloe',
	'Dmitri',
	'Emma',
	'Farid',
	'Grace',
	'Hugo',
	'Ines',
	'Jonas',
];
const LAST_NAMES = ['Silva', 'Meyer', 'Okafor', 'Novak', 'Rossi', 'Tanaka', 'Dubois', 'Kowalski'];
const personName = (random: Random) => `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`;

// ---------------------------------------------------------------- reviews

const REVIEW_TEXTS = [
	'Great service, friendly staff.',
	'Quick and professional, would come back.',
	'Average experience, nothing special.',
	'Waited too long but the result was fine.',
	'Excellent value for money.',
	'Not what I expected, disappointing.',
];

export function generateReviews(
	profileKey: string,
	options: { blocks?: number; fromDate?: string; diff?: boolean },
): ReviewRecordBody[] {
	const random = seededRandom(seedOf('reviews', profileKey));
	const wanted = options.blocks ?? 10;
	const reviews: ReviewRecordBody[] = [];
	for (let i = 0; i < wanted; i++) {
		const date = isoDate(daysBefore(i * 3));
		if (options.fromDate && date < options.fromDate) break;
		reviews.push({
			review_id: `rv_${seedOf(profileKey, i).toString(36)}`,
			author: personName(random),
			rating: between(random, 1, 5),
			text: pick(random, REVIEW_TEXTS),
			date,
		});
	}
	// A diff job only fetches what appeared since the earlier job: the newer half, here.
	return options.diff ? reviews.slice(0, Math.ceil(reviews.length / 2)) : reviews;
}

// ---------------------------------------------------------------- respond jobs and audits

export const RESPOND_JOB_FIRST_ID = 7001;

export function generateRespondJobs(count: number): RespondJobBody[] {
	const random = seededRandom(seedOf('respond-jobs'));
	return Array.from({ length: count }, (_, i) => ({
		job_id: RESPOND_JOB_FIRST_ID + i,
		profile_url: `https://www.google.com/maps/place/?q=place_id:ChIJsim${1000 + i}`,
		review_id: `rv_respond_${1000 + i}`,
		status: 'complete',
		text: `Thank you for your feedback, ${pick(random, FIRST_NAMES)}! ${pick(random, [
			'We hope to see you again soon.',
			'We are sorry about the wait and are working on it.',
			'Our team appreciates your kind words.',
		])}`,
		credits_used: 1,
	}));
}

const COMPANIES = ['Harbor Dental', 'Blue Fern Cafe', 'Northside Auto Repair', 'Lumen Yoga Studio'];
const STREETS = ['Main St', 'Oak Avenue', 'Harbor Road', 'King Street'];

export function generateAudit(jobId: number): LocalListingAuditBody {
	const random = seededRandom(seedOf('audit', jobId));
	const company = pick(random, COMPANIES);
	const phone = `+1 555-${between(random, 100, 999)}-${between(random, 1000, 9999)}`;
	const address = `${between(random, 1, 999)} ${pick(random, STREETS)}, Springfield, IL 62701`;
	const rating = () => round2(3 + random() * 2);
	const histogram = () => [1, 2, 3, 4, 5].map(() => between(random, 0, 60));
	const [a, b, c, d, e] = histogram();
	const [f, g, h, i, j] = histogram();
	// The source entries deliberately disagree on field names, as the service says they
	// do (docs/service-facts.md#respond-jobs-and-listing-audits).
	const sources: LocalNapSourceBody[] = [
		{
			company_name: company,
			phone,
			address,
			url: `https://www.google.com/maps?cid=${jobId}`,
			average_rating: rating(),
			review_count: a + b + c + d + e,
			rating_distribution: { '1': a, '2': b, '3': c, '4': d, '5': e },
			source_name: 'google.com',
		},
		{
			business_name: company,
			phone_number: phone,
			address,
			url: `https://www.yelp.com/biz/${slug(company)}`,
			average_rating: rating(),
			rating_count: f + g + h + i + j,
			rating_distribution: {
				'1 star': String(f),
				'2 stars': String(g),
				'3 stars': String(h),
				'4 stars': String(i),
				'5 stars': String(j),
			},
			source_name: 'yelp.com',
		},
		{
			company_name: company,
			phone_number: phone,
			url: `https://www.facebook.com/${slug(company)}`,
			average_rating: rating(),
			review_count: between(random, 0, 80),
			rating_distribution: null,
			source_name: 'facebook.com',
		},
		{
			business_name: company,
			phone,
			address,
			average_rating: rating(),
			rating_count: 12,
			rating_distribution: { '5': 7, '4': '3', '3': 2, '2': '0', '1': 0 },
			source_name: 'tripadvisor.com',
		},
		{
			company_name: company,
			phone,
			address: address.replace(', Springfield', ' Springfield'),
			url: `https://www.yellowpages.com/springfield-il/${slug(company)}`,
			source_name: 'yellowpages.com',
		},
		{
			business_name: company,
			address,
			average_rating: rating(),
			review_count: between(random, 0, 40),
			source_name: 'bing.com',
		},
	];
	const complete = sources.filter((s) => (s.phone ?? s.phone_number) && s.address && s.url).length;
	return {
		success: true,
		status: 200,
		company_name: company,
		phone_number: phone,
		address,
		percentage_complete: Math.round((complete / sources.length) * 100),
		local_nap_sources: sources,
	};
}

// ---------------------------------------------------------------- e-commerce products

export interface SearchPageRule {
	host: string;
	path: RegExp;
	keywordParam: string;
}

/** Search-page URLs the simulator accepts for `url` searches; anything else is not processable. */
export const SEARCH_PAGES: Record<EcommerceSource, SearchPageRule> = {
	amazon: { host: 'amazon.', path: /^\/s\/?$/, keywordParam: 'k' },
	walmart: { host: 'walmart.', path: /^\/search\/?$/, keywordParam: 'q' },
	ebay: { host: 'ebay.', path: /^\/sch\/i\.html$/, keywordParam: '_nkw' },
	target: { host: 'target.', path: /^\/s\/?$/, keywordParam: 'searchTerm' },
	bestbuy: { host: 'bestbuy.', path: /^\/site\/searchpage\.jsp$/, keywordParam: 'st' },
};

const PRODUCT_PATH: Record<EcommerceSource, (slugText: string, id: string) => string> = {
	amazon: (s, id) => `/${s}/dp/${id}`,
	walmart: (s, id) => `/ip/${s}/${id}`,
	ebay: (_s, id) => `/itm/${id}`,
	target: (s, id) => `/p/${s}/-/A-${id}`,
	bestbuy: (s, id) => `/site/${s}/${id}.p`,
};

const ADJECTIVES = ['Wireless', 'Compact', 'Pro', 'Deluxe', 'Eco', 'Ultra', 'Classic', 'Smart'];
const COLORS = ['Black', 'White', 'Blue', 'Red', 'Silver', 'Green'];
const NOUNS = ['Edition', 'Kit', 'Set', 'Bundle', 'Model', 'Pack'];

export interface Product extends EcommerceProductBody {
	metadata: { overall_pick: boolean; bought_last_month: number; prime?: boolean } | null;
}

/**
 * `count` products for a keyword, spread round-robin over the sources; `ranking` is the position
 * in the combined result list (1-based).
 */
export function generateProducts(
	keyword: string,
	sources: readonly EcommerceSource[],
	count: number,
): Product[] {
	const random = seededRandom(seedOf('products', keyword, sources.join(',')));
	const title = keyword.trim() ? keyword.trim().replace(/^./, (c) => c.toUpperCase()) : 'Product';
	return Array.from({ length: count }, (_, i) => {
		const source = sources[i % sources.length];
		const id = `${source.slice(0, 2).toUpperCase()}${seedOf(keyword, source, i).toString(36).toUpperCase()}`;
		const name = `${title} ${pick(random, ADJECTIVES)} ${pick(random, COLORS)} ${pick(random, NOUNS)} ${between(random, 100, 999)}`;
		const fullPrice = round2(between(random, 500, 50_000) / 100);
		const reduced = chance(random, 0.4) ? round2(fullPrice * (0.5 + random() * 0.45)) : null;
		const hasMetadata = chance(random, 0.8);
		const metadata: Product['metadata'] = hasMetadata
			? {
					overall_pick: chance(random, 0.1),
					bought_last_month: between(random, 0, 40) * 50,
					...(source === 'amazon' ? { prime: chance(random, 0.6) } : {}),
				}
			: null;
		const base = `https://www.${source}.com`;
		return {
			unique_id: id,
			url: `${base}${PRODUCT_PATH[source](slug(name), id)}`,
			source,
			name,
			thumbnail: `https://images.${source}.example/${id}.jpg`,
			full_price: fullPrice,
			reduced_price: reduced,
			currency: '$',
			rating: round2(1 + between(random, 0, 40) / 10),
			review_count: between(random, 0, 20_000),
			bestseller: chance(random, 0.1),
			sponsored: chance(random, 0.15),
			ranking: i + 1,
			option_count: chance(random, 0.5) ? between(random, 1, 12) : null,
			source_base_url: base,
			metadata,
		};
	});
}

// ---------------------------------------------------------------- photo and social posts

export function generatePhotoPosts(keyword: string, count: number): PhotoPostBody[] {
	const random = seededRandom(seedOf('photo', keyword));
	const tag = keyword.replace(/^#/, '').replace(/\s+/g, '').toLowerCase() || 'photo';
	const authorCount = Math.max(1, Math.ceil(count * 0.4));
	const authors = Array.from({ length: authorCount }, (_, i) => {
		const name = personName(random);
		return {
			username: `${slug(name).replace('-', '.')}${i}`,
			name,
			id: String(seedOf('photo-author', keyword, i)),
			profile_picture_url: chance(random, 0.8) ? `https://photos.example/avatars/${i}.jpg` : null,
		};
	});
	return Array.from({ length: count }, (_, i) => {
		const postId = `${3_100_000_000 + seedOf('photo-post', keyword, i)}`;
		const shortcode = seedOf('shortcode', keyword, i).toString(36);
		const isVideo = chance(random, 0.3);
		const uploaded = daysBefore(i);
		const stamp = new Date(uploaded.getTime() + 3_600_000).toISOString();
		const views = isVideo ? between(random, 100, 90_000) : null;
		return {
			unique_id: `ph_${postId}`,
			post_id: postId,
			description:
				`${pick(random, ['Loving this', 'Weekend with', 'Trying out', 'All about'])} #${tag} ${pick(random, ['✨', '🔥', '📸', ''])}`.trim(),
			hashtags: [tag, pick(random, ['instadaily', 'travel', 'food', 'style', 'nature'])],
			url: `https://photos.example/p/${shortcode}/`,
			comments_count: between(random, 0, 300),
			likes_count: between(random, 0, 20_000),
			view_count: views,
			play_count: views === null ? null : views + between(random, 0, 5_000),
			upload_date: isoDate(uploaded),
			author: authors[i % authorCount],
			tagged_users: null,
			media: [
				{
					type: isVideo ? 'video' : 'image',
					thumbnail_url: `https://photos.example/t/${shortcode}.jpg`,
					url: `https://photos.example/m/${shortcode}.${isVideo ? 'mp4' : 'jpg'}`,
					id: `${postId}_0`,
				},
			],
			created_at: stamp,
			updated_at: stamp,
		};
	});
}

export function generateSocialPost(url: string): SocialPostBody {
	const random = seededRandom(seedOf('social', url));
	const postId = String(seedOf('social-post', url));
	const name = personName(random);
	const stamp = daysBefore(between(random, 0, 30)).toISOString();
	const hashtags = ['community', pick(random, ['news', 'events', 'local', 'tech'])];
	return {
		unique_id: chance(random, 0.7) ? `sp_${postId}` : null,
		post_id: postId,
		text: `${pick(random, ['Big news today!', 'Thanks to everyone who came.', 'New post:'])} ${hashtags.map((h) => `#${h}`).join(' ')}`,
		hashtags,
		url,
		comments_count: between(random, 0, 500),
		likes_count: between(random, 0, 10_000),
		share_count: between(random, 0, 800),
		view_count: chance(random, 0.5) ? between(random, 100, 100_000) : null,
		upload_date: stamp,
		author: {
			profile_picture_url: chance(random, 0.8)
				? `https://social.example/avatars/${postId}.jpg`
				: null,
			name,
			url: `https://social.example/${slug(name)}`,
			id: String(seedOf('social-author', url)),
		},
		media: [
			{
				type: 'photo',
				thumbnail_url: `https://social.example/t/${postId}.jpg`,
				url: `https://social.example/m/${postId}.jpg`,
				id: `${postId}_1`,
			},
		],
		created_at: stamp,
		updated_at: stamp,
	};
}

// ---------------------------------------------------------------- review index

export function generateReviewIndexResults(
	endpoint: ScheduleTarget<'riapi'>,
	key: string,
): Array<Record<string, unknown>> {
	const random = seededRandom(seedOf('review-index', endpoint, key));
	if (endpoint === 'reviews') {
		return generateReviews(key, { blocks: 5 }).map((review) => ({ ...review }));
	}
	return Array.from({ length: 3 }, (_, i) => ({
		profile_id: `pr_${seedOf(key, i).toString(36)}`,
		name: pick(random, COMPANIES),
		url: `https://reviews.example/profile/${seedOf(key, i)}`,
		average_rating: round2(3 + random() * 2),
		review_count: between(random, 0, 900),
	}));
}

// ---------------------------------------------------------------- review job records

const LOCATIONS = ['Lisbon, PT', 'Berlin, DE', 'Austin, US', 'Lyon, FR', null] as const;
const LANGUAGES = ['en', 'de', 'fr', 'pt'] as const;

/**
 * Reviews in the shape of the review job callback (docs/service-facts.md#callback-payloads), from
 * the same generator.
 */
export function generateJobReviews(
	profileKey: string,
	options: { blocks?: number; fromDate?: string; diff?: boolean },
	offset = 0,
): ReviewJobReviewBody[] {
	const base = generateReviews(`${profileKey}#${offset}`, options);
	return base.map((review, i) => {
		const random = seededRandom(seedOf('job-review', profileKey, offset, i));
		const id = offset === 0 ? review.review_id : `${review.review_id}_${offset}`;
		return {
			id,
			name: review.author,
			date: review.date,
			rating_value: review.rating,
			review_text: review.text,
			url: `https://reviews.example/r/${id}`,
			profile_picture: chance(random, 0.5) ? `https://reviews.example/u/${id}.png` : null,
			location: pick(random, LOCATIONS),
			review_title: chance(random, 0.3) ? review.text.split(',')[0] : null,
			verified_order: chance(random, 0.4),
			language_code: pick(random, LANGUAGES),
			reviewer_title: chance(random, 0.2) ? 'Local Guide' : null,
			meta_data: JSON.stringify({ helpful_votes: between(random, 0, 20) }),
			response: chance(random, 0.25) ? 'Thank you for your review!' : null,
		};
	});
}
