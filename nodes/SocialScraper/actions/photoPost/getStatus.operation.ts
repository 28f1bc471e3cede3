import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { notForPollingNotice, readRequestId, requestIdField } from '../fields';
import { requestPath, scraperGet } from '../scraperRequest';

const properties: INodeProperties[] = [
	notForPollingNotice('pollingNotice'),
	requestIdField('The request_id returned by Search'),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['photoPost'], operation: ['getStatus'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const requestId = readRequestId.call(this, itemIndex);
	return await scraperGet.call(this, 'photo', requestPath('/v1/requests', requestId), itemIndex);
}
