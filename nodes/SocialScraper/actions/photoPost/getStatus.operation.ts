import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PreparedItem } from '../../../shared/outgoing/router';
import { notForPollingNotice, readRequestId, requestIdField } from '../socialRequestParts';
import { asRecord } from '../scraperRequest';
import { toolDescriptionField } from '../../../shared/outgoing/descriptions';
import { endpointRequest } from '../../../shared/outgoing/transport';

const properties: INodeProperties[] = [
	notForPollingNotice('pollingNotice'),
	requestIdField('The request_id returned by Search'),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['photoPost'], operation: ['getStatus'] } },
	[
		...properties,
		...toolDescriptionField(
			'Reads whether a photo-sharing search has finished. Request ID: the request_id the search returned.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const requestId = readRequestId.call(this, itemIndex);
	return {
		request: endpointRequest('photo', 'GET /v1/requests/:request_id', { request_id: requestId }),
		toOutput: asRecord,
	};
}
