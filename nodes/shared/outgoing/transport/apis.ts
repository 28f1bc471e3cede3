import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	INode,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS, type ApiName, type EndpointTable, type Route } from '../../endpoints';

export type { ApiName };

export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions
	| ITriggerFunctions;

/** A request to one of the service's APIs, as an operation builds it. */
export interface ServiceRequest {
	api: ApiName;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** Its row's keys that hold a callback address: where the reachability check looks. */
	callbackKeys?: readonly string[];
}

interface ApiAddress {
	credentialType: 'reviewScraperApi' | 'scrapingApi';
	baseUrlField: string;
	label: string;
	/** The credential field's name in the editor, when it is not "<label> URL". */
	fieldLabel?: string;
}

/** The credential field that identifies the account, whose rate limit its requests share. */
export const SECRET_FIELDS: Record<ApiAddress['credentialType'], string> = {
	reviewScraperApi: 'apiToken',
	scrapingApi: 'apiKey',
};

export const DEFAULT_REQUESTS_PER_SECOND = 10;

export const API_ADDRESSES: Record<ApiName, ApiAddress> = {
	review: {
		credentialType: 'reviewScraperApi',
		baseUrlField: 'baseUrl',
		label: 'Review Scraper API',
		fieldLabel: 'Base URL',
	},
	scheduling: { credentialType: 'scrapingApi', baseUrlField: 'schedulingUrl', label: 'Scheduling' },
	ecommerce: {
		credentialType: 'scrapingApi',
		baseUrlField: 'ecommerceUrl',
		label: 'E-Commerce Search',
	},
	video: { credentialType: 'scrapingApi', baseUrlField: 'videoScraperUrl', label: 'Video Scraper' },
	photo: { credentialType: 'scrapingApi', baseUrlField: 'photoScraperUrl', label: 'Photo Scraper' },
	social: {
		credentialType: 'scrapingApi',
		baseUrlField: 'socialScraperUrl',
		label: 'Social Scraper',
	},
};

function baseUrlOf(credentials: object | undefined, field: string): string | undefined {
	const baseUrl = String((credentials as IDataObject | undefined)?.[field] ?? '')
		.trim()
		.replace(/\/+$/, '');
	return /^https?:\/\//i.test(baseUrl) ? baseUrl : undefined;
}

/** The API's base URL from the credential; undefined when it is not an http(s) address. */
export async function serviceBaseUrl(
	this: RequestContext,
	api: ApiName,
): Promise<string | undefined> {
	const { credentialType, baseUrlField } = API_ADDRESSES[api];
	return baseUrlOf(await this.getCredentials(credentialType), baseUrlField);
}

/** The API's base URL from the credential, refused when it is not an http(s) address. */
export function requireBaseUrl(
	node: INode,
	api: ApiName,
	credentials: object | undefined,
	itemIndex?: number,
): string {
	const { baseUrlField, label, fieldLabel = `${label} URL` } = API_ADDRESSES[api];
	const baseUrl = baseUrlOf(credentials, baseUrlField);
	if (baseUrl !== undefined) return baseUrl;
	throw new NodeOperationError(node, `The credential has no valid ${label} URL`, {
		description: `Fill in "${fieldLabel}" of the credential with an http(s) address.`,
		itemIndex,
	});
}

/**
 * The request for one endpoint of the endpoint table, named by its method and path
 * (`'GET /v1/requests/:request_id'`), its path parameters filled in. The route is typed from the
 * table, so an operation cannot name an endpoint the table does not declare: that fails to compile.
 */
export function endpointRequest<A extends ApiName>(
	api: A,
	route: Route<A>,
	pathParams: Record<string, string | number> = {},
	parts: Pick<ServiceRequest, 'qs' | 'body'> = {},
): ServiceRequest {
	return tableRequest(ENDPOINTS, api, route, pathParams, parts);
}

/** `endpointRequest` from any table (a test's, with rows declared in memory), checked as it runs. */
export function tableRequest(
	table: EndpointTable,
	api: ApiName,
	route: string,
	pathParams: Record<string, string | number> = {},
	parts: Pick<ServiceRequest, 'qs' | 'body'> = {},
): ServiceRequest {
	const endpoint = table.endpoints.find(
		(candidate) => candidate.api === api && `${candidate.method} ${candidate.path}` === route,
	);
	if (!endpoint) throw new Error(`The endpoint table has no ${api} endpoint ${route}`);
	const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
		const value = pathParams[name];
		if (value === undefined || value === '') {
			throw new Error(`${route} needs its path parameter ${name}`);
		}
		return encodeURIComponent(String(value));
	});
	const { callbackKeys } = endpoint;
	return { api, method: endpoint.method, path, ...parts, ...(callbackKeys && { callbackKeys }) };
}
