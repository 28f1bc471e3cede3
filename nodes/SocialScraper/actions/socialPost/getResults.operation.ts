import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { outputField } from '../../../shared/descriptions';
import { notForPollingNotice, readRequestId, requestIdField } from '../fields';
import { assertCompleted, postItems } from '../results';
import { requestPath, scraperGet } from '../scraperRequest';

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
	properties,
);

// The spec documents no status endpoint on this host, so completion is read from the result
// envelope's own status before its results are used.
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | IDataObject[]> {
	const requestId = readRequestId.call(this, itemIndex);
	const envelope = await scraperGet.call(
		this,
		'social',
		requestPath('/v1/scrape', requestId),
		itemIndex,
	);
	assertCompleted(this.getNode(), itemIndex, requestId, envelope);
	return this.getNodeParameter('output', itemIndex, 'posts') === 'envelope'
		? envelope
		: postItems(envelope, requestId);
}
