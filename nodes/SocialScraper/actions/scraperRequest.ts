import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { send, type ApiName } from '../../shared/outgoing/transport';

export async function scraperGet(
	this: IExecuteFunctions,
	api: Extract<ApiName, 'photo' | 'social' | 'video'>,
	path: string,
	itemIndex: number,
	qs?: IDataObject,
): Promise<IDataObject> {
	return asRecord(await send.call(this, { api, method: 'GET', path, qs, itemIndex }));
}

/** A scraper answers with a record; an empty body reads as an empty one. */
export const asRecord = (answer: unknown): IDataObject => (answer ?? {}) as IDataObject;

export const requestPath = (prefix: string, requestId: string) =>
	`${prefix}/${encodeURIComponent(requestId)}`;
