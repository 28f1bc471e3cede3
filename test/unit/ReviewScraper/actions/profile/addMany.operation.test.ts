import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import * as profile from '../../../../../nodes/ReviewScraper/actions/profile';
import { runOperation } from '../../../../../nodes/shared/outgoing/router';
import { testNode } from '../../../helpers';

const CALLBACK = 'https://n8n.example.com/webhook/reviews';

/**
 * Add Many over `items` with the node's `parameters`; every bulk request is answered "queued",
 * except the `failing` one (counted from 0), answered 400.
 */
async function addMany(
	items: IDataObject[],
	parameters: IDataObject,
	sent: IHttpRequestOptions[] = [],
	failing?: number,
) {
	let nextJob = 100;
	const context = {
		getNode: () => ({ ...testNode, typeVersion: 1.1, parameters }),
		getInputData: () => items.map((json) => ({ json })),
		continueOnFail: () => false,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			parameters[name] ?? fallback,
		getCredentials: async () => ({
			apiToken: 'token',
			baseUrl: 'http://127.0.0.1:9',
			requestsPerSecond: 0,
		}),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				if (sent.push(options) - 1 === failing) {
					return { statusCode: 400, body: { message: 'Bad batch' }, headers: {} };
				}
				const body = (options.body as IDataObject[]).map(() => ({
					success: true,
					job_id: nextJob++,
				}));
				return { statusCode: 200, body, headers: {} };
			},
		},
	} as unknown as IExecuteFunctions;
	const [output] = await runOperation.call(context, profile.operations.addMany);
	return { sent, output };
}

describe('Add Many: the bulk requests built from the input', () => {
	it('Map Automatically: one profile per item, Batch Size per request, node callback as default', async () => {
		const { sent, output } = await addMany(
			[
				{ url: 'https://reviews.example.com/biz/1', crm: 'a' },
				{ place_id: 'ChIJ-2', blocks: '3' },
				{ query: 'Cafe', callback: 'https://other.example.com/hook' },
			],
			{ inputMode: 'autoMap', callback: CALLBACK, options: { batchSize: 2 } },
		);
		expect(sent.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
			{
				method: 'POST',
				url: 'http://127.0.0.1:9/api/v2/profiles/add_bulk',
				body: [
					{ url: 'https://reviews.example.com/biz/1', callback: CALLBACK },
					{ place_id: 'ChIJ-2', blocks: 3, callback: CALLBACK },
				],
			},
			{
				method: 'POST',
				url: 'http://127.0.0.1:9/api/v2/profiles/add_bulk',
				body: [{ query: 'Cafe', callback: 'https://other.example.com/hook' }],
			},
		]);
		expect(output.map(({ json, pairedItem }) => [json.job_id, pairedItem])).toEqual([
			[100, { item: 0 }],
			[101, { item: 1 }],
			[102, { item: 2 }],
		]);
	});

	it('From a List Field: every element of the list, linked to its item', async () => {
		const { sent, output } = await addMany(
			[{ body: { profiles: [{ url: 'https://reviews.example.com/biz/9' }, { query: 'Bar' }] } }],
			{ inputMode: 'listField', listField: 'body.profiles', callback: CALLBACK },
		);
		expect(sent).toHaveLength(1);
		expect(sent[0].body).toEqual([
			{ url: 'https://reviews.example.com/biz/9', callback: CALLBACK },
			{ query: 'Bar', callback: CALLBACK },
		]);
		expect(output.map(({ pairedItem }) => pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('sends nothing when a profile is bad', async () => {
		const sent: IHttpRequestOptions[] = [];
		await expect(
			addMany(
				[{ url: 'https://reviews.example.com/biz/1' }, { Place_ID: 'x' }],
				{ inputMode: 'autoMap', callback: CALLBACK },
				sent,
			),
		).rejects.toThrow(/did you mean "place_id"/);
		expect(sent).toEqual([]);
	});

	it('stops at a failed request and names, with their ids, the profiles the service accepted', async () => {
		const sent: IHttpRequestOptions[] = [];
		const input = [1, 2, 3, 4, 5].map((n) => ({ url: `https://reviews.example.com/biz/${n}` }));
		const run = addMany(input, { inputMode: 'autoMap', options: { batchSize: 2 } }, sent, 1);
		await expect(run).rejects.toMatchObject({
			message: 'Bad batch',
			description: expect.stringMatching(
				/2 profiles were already accepted by the service before the run stopped: do not send them again \(item 0: job_id 100 \(url https:\/\/reviews.example.com\/biz\/1\); item 1: job_id 101 .+\)\.$/,
			),
		});
		expect(sent).toHaveLength(2);
	});
});
