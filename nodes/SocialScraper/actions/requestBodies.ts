import type { IDataObject } from 'n8n-workflow';

import type { FieldReader } from '../../shared/outgoing/validation';

export interface PhotoSearchInput {
	keyword?: unknown;
	callbackUrl?: unknown;
	externalIdentifier?: unknown;
}

export interface ScrapeInput {
	url?: unknown;
	callbackUrl?: unknown;
	getComments?: unknown;
	externalIdentifier?: unknown;
}

function requiredUrl(read: FieldReader, field: string, value: unknown, why: string): string {
	const url = read.optionalUrl(field, value);
	if (url === undefined) throw read.fail(field, `is required: ${why}`);
	return url;
}

function addExternalIdentifier(read: FieldReader, body: IDataObject, value: unknown): IDataObject {
	// No length limit: the spec's "Limits" set 255 characters for review profile jobs only.
	const externalIdentifier = read.optionalString('External Identifier', value);
	if (externalIdentifier !== undefined) body.external_identifier = externalIdentifier;
	return body;
}

/** The POST /v1/search body of the photo-sharing scraper (the spec's "Photo-sharing scraper"). */
export function buildPhotoSearchBody(read: FieldReader, input: PhotoSearchInput): IDataObject {
	const keyword = read.requiredString('Keyword or Hashtag', input.keyword);
	const callbackUrl = requiredUrl(
		read,
		'Callback URL',
		input.callbackUrl,
		'the service delivers the posts to it',
	);
	return addExternalIdentifier(
		read,
		{ callback_url: callbackUrl, keyword },
		input.externalIdentifier,
	);
}

/** The POST /v1/scrape body of the social-network scraper (the spec's "Social-network scraper"). */
export function buildScrapeBody(read: FieldReader, input: ScrapeInput): IDataObject {
	const url = requiredUrl(read, 'Post URL', input.url, 'it is the post to scrape');
	const callbackUrl = requiredUrl(
		read,
		'Callback URL',
		input.callbackUrl,
		'the service delivers the post to it',
	);
	const body: IDataObject = { callback_url: callbackUrl, url };
	if (input.getComments !== undefined && input.getComments !== null && input.getComments !== '') {
		if (typeof input.getComments !== 'boolean') {
			throw read.fail(
				'Get Comments',
				`must be true or false, got ${JSON.stringify(input.getComments)}`,
			);
		}
		body.get_comments = input.getComments;
	}
	return addExternalIdentifier(read, body, input.externalIdentifier);
}
