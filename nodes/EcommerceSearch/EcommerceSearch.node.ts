import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as product from './actions/product';
import { callbackResumeWebhooks, resumeWaitingOperation } from '../shared/waiting/resume';
import { scrapingApiTest } from '../shared/outgoing/credentialTest';
import { route, type OperationTable } from '../shared/outgoing/router';

const operations: OperationTable = { product: product.operations };

export class EcommerceSearch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'E-Commerce Search',
		name: 'ecommerceSearch',
		icon: {
			light: 'file:../../icons/ecommerceSearch.svg',
			dark: 'file:../../icons/ecommerceSearch.dark.svg',
		},
		group: ['transform'],
		// Newest first, an integer last: test/unit/package-wide/nodeVersions.test.ts says why. What each version
		// changed: versions.ts.
		version: [1.2, 1.1, 1],
		defaultVersion: 1.2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Search products across e-commerce sources by keyword or search-page URL, with filters and pagination',
		defaults: { name: 'E-Commerce Search' },
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
				options: [{ name: 'Product', value: 'product' }],
				default: 'product',
			},
			...product.description,
		],
	};

	methods = { credentialTest: { scrapingApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, operations);
	}

	// Reached only through the resume URL of an execution that a Search put to wait.
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await resumeWaitingOperation.call(this, operations);
	}
}
