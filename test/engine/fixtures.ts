import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, ILoadOptionsFunctions, INodeExecutionData } from 'n8n-workflow';

import { ReviewScraperApi } from '../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../credentials/ScrapingApi.credentials';
import { EcommerceSearch } from '../../nodes/EcommerceSearch/EcommerceSearch.node';
import { ReviewScraper } from '../../nodes/ReviewScraper/ReviewScraper.node';
import { ScrapingDelivery } from '../../nodes/ScrapingDelivery/ScrapingDelivery.node';
import { SocialScraper } from '../../nodes/SocialScraper/SocialScraper.node';
import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { createSimulator, type Simulator } from '../../simulator/server';
import { runWorkflow, type NodeSpec } from './harness';

export const TOKEN = 'engine-token';
export const API_KEY = 'engine-key';

export const nodeTypes = {
	'n8n-nodes-review-scraping.reviewScraper': new ReviewScraper(),
	'n8n-nodes-review-scraping.scrapingScheduler': new ScrapingScheduler(),
	'n8n-nodes-review-scraping.ecommerceSearch': new EcommerceSearch(),
	'n8n-nodes-review-scraping.socialScraper': new SocialScraper(),
	'n8n-nodes-review-scraping.scrapingDelivery': new ScrapingDelivery(),
};

export const credentialTypes = [new ReviewScraperApi(), new ScrapingApi()];

/** Starts a simulator for the test file; stops it after the file (fast retries: setup-retry.ts). */
export function useSimulator(options: Parameters<typeof createSimulator>[0] = {}) {
	const context = { sim: undefined as unknown as Simulator };
	beforeAll(async () => {
		context.sim = createSimulator({
			token: TOKEN,
			apiKey: API_KEY,
			completionDelayMs: 20,
			...options,
			// Quick callback retries unless a test asks for the service's hours-long schedule.
			callbackRetry: { policy: 'quick', ...options.callbackRetry },
		});
		await context.sim.start();
	});
	afterAll(async () => {
		await context.sim?.stop();
	});
	beforeEach(() => context.sim.reset());
	return context;
}

export function credentialsFor(
	sim: Simulator,
	overrides: { token?: string; apiKey?: string } = {},
) {
	const { baseUrl, ...scrapingUrls } = sim.urls as unknown as Record<string, string>;
	return {
		reviewScraperApi: { apiToken: overrides.token ?? TOKEN, baseUrl },
		scrapingApi: { apiKey: overrides.apiKey ?? API_KEY, ...scrapingUrls },
	};
}

/**
 * What n8n hands a list search (a resource locator's From List) in the editor: the node's name,
 * its credential, and a GET authenticated with that credential's header.
 */
export function listSearchContext(
	sim: Simulator,
	node: string,
	credential: 'reviewScraperApi' | 'scrapingApi',
): ILoadOptionsFunctions {
	const headers: Record<string, string> =
		credential === 'reviewScraperApi' ? { 'spiderman-token': TOKEN } : { 'x-api-key': API_KEY };
	return {
		getNode: () => ({ name: node }),
		getCredentials: async () => credentialsFor(sim)[credential],
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IDataObject) => {
				const response = await fetch(`${options.url}`, { headers });
				return { statusCode: response.status, headers: {}, body: await response.json() };
			},
		},
	} as unknown as ILoadOptionsFunctions;
}

export async function runNode(
	sim: Simulator,
	node: Omit<NodeSpec, 'name'> & { name?: string },
	inputItems: IDataObject[] = [{}],
	overrides: {
		baseUrl?: string;
		/** Credentials of another shape than the simulator's own (a service on a public host). */
		credentials?: ReturnType<typeof credentialsFor>;
	} = {},
) {
	const name = node.name ?? 'Node Under Test';
	return await runWorkflow({
		baseUrl: overrides.baseUrl,
		nodes: [{ ...node, name }],
		nodeTypes,
		credentialTypes,
		credentials: overrides.credentials ?? credentialsFor(sim),
		inputItems: inputItems.map((json): INodeExecutionData => ({ json })),
	}).then((run) => ({ ...run, items: () => run.json(name), pairs: () => run.output(name)[0] }));
}

/** A callback receiver on 127.0.0.1 that records every JSON POST. */
export async function startReceiver() {
	const received: Array<{ url: string; body: IDataObject }> = [];
	const server: Server = createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			received.push({ url: req.url ?? '', body: JSON.parse(raw || '{}') });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		received,
		close: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
