import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as delivery from './actions/delivery';
import { route, type OperationTable } from '../shared/outgoing/router';

const operations: OperationTable = { delivery: delivery.operations };

/**
 * The receiving end on n8n's fast path: n8n's own Webhook node takes the delivery (n8n builds no
 * expression isolate for its webhook phase, as it does for every other start node), and this
 * node does with it what the Scraping Callback Trigger does.
 */
export class ScrapingDelivery implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scraping Delivery',
		name: 'scrapingDelivery',
		icon: {
			light: 'file:../../icons/scrapingDelivery.svg',
			dark: 'file:../../icons/scrapingDelivery.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"Reads the service's deliveries that n8n's Webhook node received, as the Scraping Callback Trigger would, for deliveries at volume",
		defaults: { name: 'Scraping Delivery' },
		// n8n's community-package scanner requires it of every action node.
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName:
					"Put this node right after n8n's Webhook node (HTTP Method POST, Respond Immediately, no expression in its parameters) and give operations that Webhook node's Production URL as their Callback URL, with ?secret=… at its end if you require a secret",
				name: 'webhookNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Delivery', value: 'delivery' }],
				default: 'delivery',
			},
			...delivery.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this, operations);
	}
}
