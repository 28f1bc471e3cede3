import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as schedule from './actions/schedule';
import { searchSchedules } from './methods/listSearch';
import { scrapingApiTest } from '../shared/outgoing/credentialTest';
import { route, type OperationTable } from '../shared/outgoing/router';

const operations: OperationTable = { schedule: schedule.operations };

export class ScrapingScheduler implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraping Scheduler',
		name: 'scrapingScheduler',
		icon: {
			light: 'file:../../icons/scrapingScheduler.svg',
			dark: 'file:../../icons/scrapingScheduler.dark.svg',
		},
		group: ['transform'],
		// Newest first, an integer last: test/unit/package-wide/nodeVersions.test.ts says why. What each version
		// changed: versions.ts.
		version: [1.1, 1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Create, read and delete collection schedules by hand. To start a workflow with each scheduled collection, use the Recurring Reviews Trigger instead.',
		defaults: { name: 'Scraping Scheduler' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scrapingApi', required: true, testedBy: 'scrapingApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Schedule', value: 'schedule' }],
				default: 'schedule',
			},
			...schedule.description,
		],
	};

	methods = { listSearch: { searchSchedules }, credentialTest: { scrapingApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, operations);
	}
}
