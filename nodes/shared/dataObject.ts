import type { IDataObject } from 'n8n-workflow';

/** A copy of `object` without `keys`. */
export function withoutKeys(object: IDataObject, ...keys: string[]): IDataObject {
	return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
