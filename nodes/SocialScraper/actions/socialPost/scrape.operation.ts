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
		displayName: 'Post URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://social.example.com/someone/posts/123456',
		description: 'Address of the post whose engagement, caption, comments and media to extract',
	},
	callbackUrlField(
		'Address that receives the post as a JSON POST when the scrape is complete, for example the production URL of a Scraping Callback Trigger or Webhook node',
	),
	additionalFields([
		externalIdentifierOption,
		{
			displayName: 'Get Comments',
			name: 'getComments',
			type: 'boolean',
			default: false,
			description:
				"Whether the service collects the post's comments too. It serves them from a comments endpoint that is not in its documented interface, so no operation here reads them; the results carry comments_count.",
		},
	]),
	callbackOptions,
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['socialPost'], operation: ['scrape'] } },
	[
		...withWaitForCompletion(properties, waiting),
		...toolDescriptionField(
			'Scrapes one social media post from its Post URL. Returns a request_id at once; the post is delivered to the Callback URL, or read later with Get Results and that request_id.',
			'Scrapes one social media post from its Post URL and waits for it. Returns the scraped post.',
		),
	],
);

export const prepare = waitsForCompletion(waiting, function (itemIndex, resumeUrl) {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return {
		request: endpointRequest(
			'social',
			'POST /v1/scrape',
			{},
			{
				body: buildScrapeBody(new FieldReader(this.getNode(), itemIndex), {
					url: this.getNodeParameter('url', itemIndex, ''),
					callbackUrl: resumeUrl ?? this.getNodeParameter('callbackUrl', itemIndex, ''),
					getComments: additional.getComments,
					externalIdentifier: additional.externalIdentifier,
				}),
			},
		),
	};
});

export interface ScrapeInput {
	url?: unknown;
	callbackUrl?: unknown;
	getComments?: unknown;
	externalIdentifier?: unknown;
}

/** The social-network scraper's POST /v1/scrape body (docs/service-facts.md#social-scrapers). */
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
