import type { IDataObject } from 'n8n-workflow';

/** A scraper answers with a record; an empty body reads as an empty one. */
export const asRecord = (answer: unknown): IDataObject => (answer ?? {}) as IDataObject;
