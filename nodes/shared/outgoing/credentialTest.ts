import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { API_ADDRESSES, type ApiName } from './transport/apis';

/**
 * One read per host of the Scraping API credential, each creating nothing: a status lookup of a
 * request that cannot exist, the schedule list, and for e-commerce search (which has no read
 * endpoint) a GET of the search address.
 */
const TEST_PATHS: Partial<Record<ApiName, string>> = {
	scheduling: '/schedules',
	ecommerce: '/search',
	video: '/v1/requests/n8n-credential-test',
	photo: '/v1/requests/n8n-credential-test',
	social: '/v1/scrape/n8n-credential-test',
};

const HOSTS = Object.entries(API_ADDRESSES)
	.filter(([, { credentialType }]) => credentialType === 'scrapingApi')
	.map(([api, { baseUrlField, label }]) => ({
		field: baseUrlField,
		label: `${label} URL`,
		path: TEST_PATHS[api as ApiName] ?? '/',
	}));

const TIMEOUT_MS = 15_000;

/**
 * Tests the key against every host the user filled, so a credential for e-commerce search alone
 * passes without a scheduling URL. A host answering 401 or 403 refused the key; any other answer
 * (404 for the made-up request included) means the host was reached and took the key.
 */
export async function scrapingApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const filled = HOSTS.filter(
		({ field }) => typeof data[field] === 'string' && (data[field] as string).trim() !== '',
	);
	if (filled.length === 0) {
		return {
			status: 'Error',
			message:
				'No API URL is filled: fill the URL of at least one API you use (Scheduling, E-Commerce Search, Video, Photo or Social Scraper URL)',
		};
	}
	// A credential test gets no httpRequest from n8n (2.41 gives this context `request` only).
	const { request } = this.helpers;
	for (const host of filled) {
		const base = (data[host.field] as string).trim().replace(/\/+$/, '');
		let statusCode: number;
		try {
			const response = (await request({
				method: 'GET',
				uri: `${base}${host.path}`,
				headers: { 'x-api-key': data.apiKey, accept: 'application/json' },
				json: true,
				simple: false,
				resolveWithFullResponse: true,
				timeout: TIMEOUT_MS,
			})) as { statusCode?: number };
			statusCode = Number(response?.statusCode);
		} catch (error) {
			return {
				status: 'Error',
				message: `${host.label} could not be reached: ${(error as Error).message}`,
			};
		}
		if (statusCode === 401 || statusCode === 403) {
			return {
				status: 'Error',
				message: `The API key was refused: check the key (${host.label} answered HTTP ${statusCode})`,
			};
		}
		if (!(statusCode >= 200 && statusCode < 500)) {
			return {
				status: 'Error',
				message: `${host.label} answered HTTP ${statusCode}: check the address`,
			};
		}
	}
	return {
		status: 'OK',
		message: `Connection successful (${filled.map(({ label }) => label).join(', ')})`,
	};
}
