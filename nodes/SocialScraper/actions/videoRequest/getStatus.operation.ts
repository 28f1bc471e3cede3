import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { notForPollingNotice, readRequestId, requestIdField } from '../fields';
import { asRecord, requestPath } from '../scraperRequest';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			"This node cannot start a video request: the video scraper's submit endpoint is not part of the service's documented interface. The Request ID comes from a request submitted outside n8n: the answer to that submission carries it, and so does the request's callback (a Scraping Callback Trigger receives it as kind Video Request).",
		name: 'requestIdNotice',
		type: 'notice',
		default: '',
	},
	notForPollingNotice('pollingNotice'),
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
		request: { api: 'video', method: 'GET', path: requestPath('/v1/requests', requestId) },
		toOutput: asRecord,
	};
}
