import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions';
import type { PreparedItem } from '../../../shared/operations';
import { prepareSubmission, withWaitForCompletion } from '../../../shared/waitForCompletion';
import { FieldReader } from '../../../shared/validation';
import { callbackUrlField, externalIdentifierOption } from '../fields';
import { buildScrapeBody } from '../payload';

const properties: INodeProperties[] = [
	{
		displayName: 'Post URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'https://social.example.com/someone/posts/123456',
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
				"Whether to collect the post's comments too; the service offers them through a separate comments endpoint after completion",
		},
	]),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['socialPost'], operation: ['scrape'] } },
	withWaitForCompletion(properties, 'callbackUrl'),
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return prepareSubmission.call(this, itemIndex, {
		request: (resumeUrl) => ({
			api: 'social',
			method: 'POST',
			path: '/v1/scrape',
			body: buildScrapeBody(new FieldReader(this.getNode(), itemIndex), {
				url: this.getNodeParameter('url', itemIndex, ''),
				callbackUrl: resumeUrl ?? this.getNodeParameter('callbackUrl', itemIndex, ''),
				getComments: additional.getComments,
				externalIdentifier: additional.externalIdentifier,
			}),
		}),
		idField: 'request_id',
	});
}
