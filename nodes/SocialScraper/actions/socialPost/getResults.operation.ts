import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputField, toolDescriptionField } from '../../../shared/outgoing/descriptions';
import type { PreparedItem } from '../../../shared/outgoing/router';
import { notForPollingNotice, readRequestId, requestIdField } from '../socialRequestParts';
import { assertCompleted, postItems } from '../results';
import { asRecord } from '../scraperRequest';
import { endpointRequest } from '../../../shared/outgoing/transport';

const properties: INodeProperties[] = [
	notForPollingNotice('pollingNotice'),
	requestIdField('The request_id returned by Scrape'),
	outputField(
		{
			name: 'One Item per Post',
			value: 'posts',
			description: 'Each scraped post with the request_id',
		},
		'One item with the posts, request metadata and credits used',
	),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['socialPost'], operation: ['getResults'] } },
	[
		...properties,
		...toolDescriptionField(
			'Reads a finished post scrape. Request ID: the request_id the scrape returned.',
		),
	],
);

// The service documents no status endpoint on this host, so completion is read from the result
// envelope's own status before its results are used.
export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const requestId = readRequestId.call(this, itemIndex);
	const output = this.getNodeParameter('output', itemIndex, 'posts');
	return {
		request: endpointRequest('social', 'GET /v1/scrape/:request_id', { request_id: requestId }),
		toOutput: (answer: unknown) => {
			const envelope = asRecord(answer);
			assertCompleted(this.getNode(), itemIndex, requestId, envelope);
			return output === 'envelope' ? envelope : postItems(envelope, requestId);
		},
	};
}
