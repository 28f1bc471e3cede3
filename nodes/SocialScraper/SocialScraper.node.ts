import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as photoPost from './actions/photoPost';
import * as socialPost from './actions/socialPost';
import * as videoRequest from './actions/videoRequest';
import { callbackResumeWebhooks, resumeWaitingOperation } from '../shared/waiting/resume';
import { scrapingApiTest } from '../shared/outgoing/credentialTest';
import { route, type OperationTable } from '../shared/outgoing/router';

const operations: OperationTable = {
	photoPost: photoPost.operations,
	socialPost: socialPost.operations,
	videoRequest: videoRequest.operations,
};

export class SocialScraper implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Social Scraper',
		name: 'socialScraper',
		icon: {
			light: 'file:../../icons/socialScraper.svg',
			dark: 'file:../../icons/socialScraper.dark.svg',
		},
		group: ['transform'],
		// Newest first, an integer last: test/unit/package-wide/nodeVersions.test.ts says why. What each version
		// changed: versions.ts.
		version: [1.2, 1.1, 1],
		defaultVersion: 1.2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Find photo posts by keyword or hashtag, extract social posts, and read scraper request results and status',
		defaults: { name: 'Social Scraper' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scrapingApi', required: true, testedBy: 'scrapingApiTest' }],
		webhooks: callbackResumeWebhooks,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Photo Post', value: 'photoPost' },
					{ name: 'Social Post', value: 'socialPost' },
					{
						name: 'Video Request',
						value: 'videoRequest',
						description: 'Status of video scraper requests submitted outside n8n',
					},
				],
				default: 'photoPost',
			},
			...photoPost.description,
			...socialPost.description,
			...videoRequest.description,
		],
	};

	methods = { credentialTest: { scrapingApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, operations);
	}

	// Reached only through the resume URL of an execution that a Search or Scrape put to wait.
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumeWaitingOperation.call(this, operations);
	}
}
