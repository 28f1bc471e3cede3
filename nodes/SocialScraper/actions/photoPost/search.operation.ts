import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { callbackOptions } from '../../../shared/outgoing/callbackReachability';
import { additionalFields, toolDescriptionField } from '../../../shared/outgoing/descriptions';
import { FieldReader } from '../../../shared/outgoing/validation';
import { withWaitForCompletion } from '../../../shared/waiting/waitFields';
import { waitsForCompletion } from '../../../shared/waiting/wait';
import {
	addExternalIdentifier,
	callbackUrlField,
	externalIdentifierOption,
	requiredUrl,
	waitingForPosts,
} from '../socialRequestParts';
import { endpointRequest } from '../../../shared/outgoing/transport';

export const waiting = waitingForPosts;

const properties: INodeProperties[] = [
	{
		displayName: 'Keyword or Hashtag',
		name: 'keyword',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. #sunset',
		description:
			'Word or hashtag to find posts for. Results come from a general web search, so they may differ from what a logged-in user sees.',
	},
	callbackUrlField(
		'Address that receives the posts as a JSON POST when the search is complete, for example the production URL of a Scraping Callback Trigger or Webhook node',
	),
	additionalFields([externalIdentifierOption]),
	callbackOptions,
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['photoPost'], operation: ['search'] } },
	[
		...withWaitForCompletion(properties, waiting),
		...toolDescriptionField(
			'Searches a photo-sharing site for posts by Keyword or Hashtag. Returns a request_id at once; the posts are delivered to the Callback URL, or read later with Get Results and that request_id.',
			'Searches a photo-sharing site for posts by Keyword or Hashtag and waits for the results. Returns the posts found.',
		),
	],
);

export const prepare = waitsForCompletion(waiting, function (itemIndex, resumeUrl) {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return {
		request: endpointRequest(
			'photo',
			'POST /v1/search',
			{},
			{
				body: buildPhotoSearchBody(new FieldReader(this.getNode(), itemIndex), {
					keyword: this.getNodeParameter('keyword', itemIndex, ''),
					callbackUrl: resumeUrl ?? this.getNodeParameter('callbackUrl', itemIndex, ''),
					externalIdentifier: additional.externalIdentifier,
				}),
			},
		),
	};
});

export interface PhotoSearchInput {
	keyword?: unknown;
	callbackUrl?: unknown;
	externalIdentifier?: unknown;
}

/** The photo-sharing scraper's POST /v1/search body (docs/service-facts.md#social-scrapers). */
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
