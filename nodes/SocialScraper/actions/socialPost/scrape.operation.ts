import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions';
import { apiRequest } from '../../../shared/transport';
import {
	isWaitingRequested,
	resumeCallbackUrl,
	waitForCallback,
	withWaitForCompletion,
} from '../../../shared/waitForCompletion';
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

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const waiting = isWaitingRequested.call(this, itemIndex);
	const body = buildScrapeBody(new FieldReader(this.getNode(), itemIndex), {
		url: this.getNodeParameter('url', itemIndex, ''),
		callbackUrl: waiting
			? resumeCallbackUrl.call(this, itemIndex)
			: this.getNodeParameter('callbackUrl', itemIndex, ''),
		getComments: additional.getComments,
		externalIdentifier: additional.externalIdentifier,
	});
	const acknowledgement = (await apiRequest.call(this, {
		api: 'social',
		method: 'POST',
		path: '/v1/scrape',
		body,
		itemIndex,
	})) as IDataObject;
	if (waiting) await waitForCallback.call(this, itemIndex, acknowledgement.request_id);
	return acknowledgement;
}
