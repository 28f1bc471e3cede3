import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as listingAudit from './actions/listingAudit';
import * as profile from './actions/profile';
import * as respondJob from './actions/respondJob';
import { searchRespondJobs } from './methods/listSearch';
import { callbackResumeWebhooks, resumeWaitingOperation } from '../shared/waiting/resume';
import { route, type OperationTable } from '../shared/outgoing/router';

const operations: OperationTable = {
	profile: profile.operations,
	respondJob: respondJob.operations,
	listingAudit: listingAudit.operations,
};

export class ReviewScraper implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Review Scraper',
		name: 'reviewScraper',
		icon: {
			light: 'file:../../icons/reviewScraper.svg',
			dark: 'file:../../icons/reviewScraper.dark.svg',
		},
		group: ['transform'],
		// Newest first, an integer last: test/unit/package-wide/nodeVersions.test.ts says why. What each version
		// changed: versions.ts.
		version: [1.3, 1.2, 1.1, 1],
		defaultVersion: 1.3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Queue review collection jobs for review profiles, read respond jobs and local listing audits',
		defaults: { name: 'Review Scraper' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'reviewScraperApi', required: true }],
		webhooks: callbackResumeWebhooks,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Listing Audit',
						value: 'listingAudit',
						description: 'How each review site lists the business of a profile job',
					},
					{
						name: 'Profile',
						value: 'profile',
						description: 'A review profile whose reviews a job collects',
					},
					{
						name: 'Respond Job',
						value: 'respondJob',
						description: 'A reply to a review, posted through the service',
					},
				],
				default: 'profile',
			},
			...profile.description,
			...respondJob.description,
			...listingAudit.description,
		],
	};

	methods = { listSearch: { searchRespondJobs } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, operations);
	}

	// Reached only through the resume URL of an execution that Profile → Add put to wait.
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumeWaitingOperation.call(this, operations);
	}
}
