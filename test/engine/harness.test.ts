import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	IWebhookFunctions,
} from 'n8n-workflow';

import { ReviewScraperApi } from '../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../credentials/ScrapingApi.credentials';
import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { chain, INPUT_NODE, runWorkflow, testCredential } from './harness';

const TOKEN = 'right-token';
const JOBS = [
	{ id: 'job-1', status: 'done' },
	{ id: 'job-2', status: 'running' },
];

interface Received {
	headers: IncomingHttpHeaders;
	url: string;
}

let server: Server;
let baseUrl: string;
let received: Received[] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		received.push({ headers: req.headers, url: req.url ?? '' });
		const path = new URL(req.url ?? '/', 'http://localhost').pathname;
		if (req.headers['spiderman-token'] === 'refused-in-body') {
			// How the production service refuses a token: HTTP 200, the refusal in the body.
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ success: false, status: 401, message: 'Invalid spiderman-token' }));
			return;
		}
		const status =
			req.headers['spiderman-token'] !== TOKEN ? 401 : path === '/api/v2/responds/jobs' ? 200 : 404;
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(status === 200 ? JOBS : { message: 'Invalid token' }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	received = [];
});

class FetchJobs implements INodeType {
	description = {
		displayName: 'Fetch Jobs',
		name: 'fetchJobs',
		group: ['transform'],
		version: 1,
		description: 'Lists respond jobs, once per input item',
		defaults: { name: 'Fetch Jobs' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'reviewScraperApi', required: true }],
		properties: [{ displayName: 'Tag', name: 'tag', type: 'string', default: '' }],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			try {
				const { baseUrl: base } = await this.getCredentials<{ baseUrl: string }>(
					'reviewScraperApi',
					i,
				);
				const jobs = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'reviewScraperApi',
					{
						method: 'GET',
						url: `${base}/api/v2/responds/jobs`,
						qs: { tag: this.getNodeParameter('tag', i) as string },
						json: true,
					},
				)) as IDataObject[];
				out.push(...jobs.map((job) => ({ json: { ...job, item: i }, pairedItem: { item: i } })));
			} catch (error) {
				if (this.continueOnFail()) {
					out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
					continue;
				}
				throw error;
			}
		}
		return [out];
	}
}

class WaitForCallback implements INodeType {
	description = {
		displayName: 'Wait For Callback',
		name: 'waitForCallback',
		group: ['transform'],
		version: 1,
		description: 'Waits until its resume URL is called',
		defaults: { name: 'Wait For Callback' },
		inputs: ['main'],
		outputs: ['main'],
		webhooks: [{ name: 'default', httpMethod: 'POST', path: '', restartWebhook: true }],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resumeUrl = this.evaluateExpression('{{ $execution.resumeUrl }}', 0) as string;
		await this.putExecutionToWait(new Date(Date.now() + 60_000));
		return [this.getInputData().map((item) => ({ json: { ...item.json, resumeUrl } }))];
	}

	async webhook(this: IWebhookFunctions) {
		return {
			webhookResponse: { received: true },
			workflowData: [[{ json: this.getBodyData() }]],
		};
	}
}

const nodeTypes = {
	'test.fetchJobs': new FetchJobs(),
	'test.waitForCallback': new WaitForCallback(),
};
const credentialTypes = [new ReviewScraperApi(), new ScrapingApi()];
const credentials = (token = TOKEN) => ({
	reviewScraperApi: { apiToken: token, baseUrl },
	scrapingApi: { apiKey: 'unused', schedulingUrl: baseUrl },
});

const fetchNode = { name: 'Fetch', type: 'test.fetchJobs', parameters: { tag: '={{ $json.n }}' } };

describe('engine harness', () => {
	it('sends the credential header and outputs what the server returned', async () => {
		const run = await runWorkflow({
			nodes: [fetchNode],
			nodeTypes,
			credentialTypes,
			credentials: credentials(),
		});

		expect(run.status).toBe('success');
		expect(run.error).toBeUndefined();
		expect(received).toHaveLength(1);
		expect(received[0].headers['spiderman-token']).toBe(TOKEN);
		expect(run.json('Fetch')).toEqual(JOBS.map((job) => ({ ...job, item: 0 })));
	});

	it('fails the execution with the node error on a wrong token', async () => {
		const run = await runWorkflow({
			nodes: [fetchNode],
			nodeTypes,
			credentialTypes,
			credentials: credentials('wrong'),
		});

		expect(run.status).toBe('error');
		expect(received[0].headers['spiderman-token']).toBe('wrong');
		// The engine stores errors as plain copies of the node's error, as n8n's database does.
		const nodeError = {
			name: 'NodeApiError',
			httpCode: '401',
			message: 'Authorization failed - please check your credentials',
			description: 'Invalid token',
			node: expect.objectContaining({ name: 'Fetch' }),
		};
		expect(run.error).toMatchObject(nodeError);
		expect(run.nodeError('Fetch')).toMatchObject(nodeError);
	});

	it.each([{ continueOnFail: true }, { onError: 'continueRegularOutput' as const }])(
		'turns the failure into an error item with %o',
		async (setting) => {
			const run = await runWorkflow({
				nodes: [{ ...fetchNode, ...setting }],
				nodeTypes,
				credentialTypes,
				credentials: credentials('wrong'),
			});

			expect(run.status).toBe('success');
			expect(run.json('Fetch')).toEqual([
				{ error: 'Authorization failed - please check your credentials' },
			]);
		},
	);

	it('feeds 250 input items to the node', async () => {
		const inputItems = Array.from({ length: 250 }, (_, n) => ({ json: { n } }));
		const run = await runWorkflow({
			nodes: [fetchNode],
			nodeTypes,
			credentialTypes,
			credentials: credentials(),
			inputItems,
		});

		expect(run.status).toBe('success');
		expect(run.json(INPUT_NODE)).toHaveLength(250);
		expect(received).toHaveLength(250);
		const tags = received.map((r) => new URL(r.url, baseUrl).searchParams.get('tag'));
		expect(tags).toEqual(inputItems.map(({ json }) => String(json.n)));
		const output = run.json('Fetch');
		expect(output).toHaveLength(500);
		expect(new Set(output.map((o) => o.item)).size).toBe(250);
	});

	it('waits, then resumes from the webhook or passes input through when the time runs out', async () => {
		const run = await runWorkflow({
			nodes: [fetchNode, { name: 'Wait', type: 'test.waitForCallback' }],
			connections: chain(['Fetch', 'Wait']),
			nodeTypes,
			credentialTypes,
			credentials: credentials(),
			executionId: '42',
			baseUrl: 'http://127.0.0.1:5678',
		});

		expect(run.status).toBe('waiting');
		expect(run.waitTill).toBeInstanceOf(Date);
		expect(run.resumeUrl).toMatch(
			/^http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/42\?signature=[0-9a-f]{64}$/,
		);
		expect(run.json('Wait')[0].resumeUrl).toBe(run.resumeUrl);

		const resumed = await run.resume({ body: { callback: 'done' } });
		expect(resumed.status).toBe('success');
		expect(resumed.webhookResponse).toEqual({ received: true });
		expect(resumed.json('Wait')).toEqual([{ callback: 'done' }]);

		const expired = await run.expire();
		expect(expired.status).toBe('success');
		expect(expired.json('Wait')).toEqual(run.json('Fetch'));
	});

	describe('testCredential', () => {
		it('is OK with the right token', async () => {
			const result = await testCredential(new ReviewScraperApi(), {
				apiToken: TOKEN,
				baseUrl: `${baseUrl}/`,
			});

			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(received).toHaveLength(1);
			expect(received[0].url).toBe('/api/v2/responds/jobs');
			expect(received[0].headers['spiderman-token']).toBe(TOKEN);
		});

		it('is an Error with a wrong token', async () => {
			const result = await testCredential(new ReviewScraperApi(), {
				apiToken: 'wrong',
				baseUrl,
			});

			expect(result).toEqual({
				status: 'Error',
				message: 'The API token was refused: check the token',
			});
		});

		it('is an Error with the service message when the token is refused in an HTTP 200 body', async () => {
			const result = await testCredential(new ReviewScraperApi(), {
				apiToken: 'refused-in-body',
				baseUrl,
			});

			expect(result).toEqual({
				status: 'Error',
				message:
					'The API token was refused: the service says the token is invalid. Check the API Token field',
			});
		});

		it('is an Error when nothing listens', async () => {
			const result = await testCredential(
				new ScrapingApi(),
				{ apiKey: 'k', schedulingUrl: 'http://127.0.0.1:1' },
				{ nodeTypes: [new ScrapingScheduler()] },
			);

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^Scheduling URL could not be reached: .*ECONNREFUSED/);
		});
	});
});
