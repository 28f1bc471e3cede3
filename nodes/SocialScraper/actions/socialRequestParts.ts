import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FieldReader } from '../../shared/outgoing/validation';
import { oneResumedItem, type Waiting } from '../../shared/waiting/declaration';
import { ONE_RESUMED_ITEM_FROM, WAIT_TIME_LIMIT_IN_UNITS_FROM } from '../versions';
import { postItems } from './results';

/**
 * What Search and Scrape wait on. Version 1 gave one item per post, which n8n cannot link back to
 * the one waiting input item; workflows saved with it keep that.
 */
export const waitingForPosts: Waiting = {
	callbackParameter: 'callbackUrl',
	idField: 'request_id',
	timeLimitInUnitsFrom: WAIT_TIME_LIMIT_IN_UNITS_FROM,
	resumedItems: (envelope, node) =>
		node.typeVersion >= ONE_RESUMED_ITEM_FROM
			? oneResumedItem(envelope)
			: postItems(envelope, String(envelope.request_id ?? '')),
};

export const requestIdField = (description: string): INodeProperties => ({
	displayName: 'Request ID',
	name: 'requestId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 5f0c7a1e-8d2b-4c3e-9a41-0b6f2d7e9c15',
	description,
});

export const callbackUrlField = (description: string): INodeProperties => ({
	displayName: 'Callback URL',
	name: 'callbackUrl',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. https://your-n8n.example.com/webhook/scrapes',
	description,
});

export const externalIdentifierOption: INodeProperties = {
	displayName: 'External Identifier',
	name: 'externalIdentifier',
	type: 'string',
	default: '',
	description: 'Your own reference for the request; echoed in the callback payload',
};

export const notForPollingNotice = (name: string): INodeProperties => ({
	displayName:
		'The service does not intend this endpoint for polling: use the callback URL given at submission to learn when a request completes',
	name,
	type: 'notice',
	default: '',
});

export function readRequestId(this: IExecuteFunctions, itemIndex: number): string {
	return new FieldReader(this.getNode(), itemIndex).requiredString(
		'Request ID',
		this.getNodeParameter('requestId', itemIndex, ''),
	);
}

export function requiredUrl(read: FieldReader, field: string, value: unknown, why: string): string {
	const url = read.optionalUrl(field, value);
	if (url === undefined) throw read.fail(field, `is required: ${why}`);
	return url;
}

export function addExternalIdentifier(
	read: FieldReader,
	body: IDataObject,
	value: unknown,
): IDataObject {
	// No length limit: the service sets 255 characters for review profile jobs only.
	const externalIdentifier = read.optionalString('External Identifier', value);
	if (externalIdentifier !== undefined) body.external_identifier = externalIdentifier;
	return body;
}
