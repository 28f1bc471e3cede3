import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { readRequestId, requestIdField } from '../socialRequestParts';
import { asRecord } from '../scraperRequest';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';
import { endpointRequest } from '../../../shared/outgoing/transport';

const properties: INodeProperties[] = [
	{
		displayName:
			"This node cannot start a video request (its submit endpoint is not in the service's documented interface): the Request ID comes from that submission's answer or its callback, which a Scraping Callback Trigger receives as kind Video Request. The callback, not polling this endpoint, says when the request completes.",
		name: 'requestIdNotice',
		type: 'notice',
		default: '',
	},
	requestIdField(
		'The request_id of a video scraper request submitted outside n8n, from the answer to that submission or from its callback',
	),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['videoRequest'], operation: ['getStatus'] } },
	[
		...properties,
		...toolDescriptionField(
			'Reads the status of a video request. Request ID: the request_id of the video request.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const requestId = readRequestId.call(this, itemIndex);
	return {
		request: endpointRequest('video', 'GET /v1/requests/:request_id', { request_id: requestId }),
		toOutput: asRecord,
	};
}
