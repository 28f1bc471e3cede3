import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../../shared/dataObject';

function toNumber(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value === 'string' && value.trim() !== '') {
		const number = Number(value.replace(/,/g, ''));
		return Number.isFinite(number) ? number : null;
	}
	return null;
}

function firstPresent(entry: IDataObject, keys: string[]): IDataObject[string] {
	for (const key of keys) {
		if (entry[key] !== undefined && entry[key] !== null) return entry[key];
	}
	return null;
}

/**
 * Sources name the same facts differently (company_name / business_name, phone / phone_number,
 * review_count / rating_count) and give distribution counts as numbers or strings. One shape per
 * source makes the audit usable in later nodes; the untouched entry stays under `raw`.
 */
export function simplifySource(entry: IDataObject): IDataObject {
	const distribution = entry.rating_distribution;
	let ratingDistribution: IDataObject | null = null;
	if (isObject(distribution)) {
		ratingDistribution = {};
		for (const [label, count] of Object.entries(distribution)) {
			ratingDistribution[label] = toNumber(count);
		}
	}
	return {
		source_name: firstPresent(entry, ['source_name']),
		name: firstPresent(entry, ['company_name', 'business_name']),
		phone: firstPresent(entry, ['phone', 'phone_number']),
		address: firstPresent(entry, ['address']),
		url: firstPresent(entry, ['url']),
		average_rating: toNumber(entry.average_rating),
		review_count: toNumber(firstPresent(entry, ['review_count', 'rating_count'])),
		rating_distribution: ratingDistribution,
		raw: entry,
	};
}

export function simplifyAudit(audit: IDataObject): IDataObject {
	const sources = Array.isArray(audit.local_nap_sources) ? audit.local_nap_sources : [];
	return {
		...audit,
		local_nap_sources: sources.map((entry) => simplifySource((entry ?? {}) as IDataObject)),
	};
}
