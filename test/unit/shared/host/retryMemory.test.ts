import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

import { runOperation, type ItemOperation } from '../../../../nodes/shared/outgoing/router';
import { testNode } from '../../helpers';

/**
 * n8n's Retry On Fail calls execute() again with the same execute-data object: a stand-in that
 * does the same, and a service that answers each item as `answer(item, call)` says.
 */
function tries(
	answer: (item: number, call: number) => { statusCode: number; body: unknown } | 'reset',
	node: Partial<INode> = {},
	customData = true,
) {
	const sent: number[] = [];
	const calls = new Map<number, number>();
	const contextFor = (executeData: object, itemCount = 3) =>
		({
			getInputData: () => Array.from({ length: itemCount }, (_, i) => ({ json: { i } })),
			continueOnFail: () => node.onError !== undefined && node.onError !== 'stopWorkflow',
			getNode: () => ({ ...testNode, ...node }),
			getExecuteData: () => executeData,
			...(customData ? { customData: { set: () => undefined, get: () => undefined } } : {}),
			getCredentials: async () => ({ baseUrl: 'http://127.0.0.1:9', requestsPerSecond: 0 }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
					const item = Number((options.qs as IDataObject).i);
					sent.push(item);
					const call = (calls.get(item) ?? 0) + 1;
					calls.set(item, call);
					const result = answer(item, call);
					if (result === 'reset')
						throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
					return { headers: {}, ...result };
				},
			},
		}) as unknown as IExecuteFunctions;
	return { contextFor, sent };
}

const submit: ItemOperation = {
	description: [],
	prepare: (i: number) => ({
		request: { api: 'review', method: 'POST', path: '/probe', qs: { i } },
	}),
};
const accepted = (item: number) => ({ statusCode: 200, body: { schedule_id: 100 + item } });
const refused = { statusCode: 200, body: { success: false, status: 400, message: 'Refused' } };

const failure = async (promise: Promise<unknown>) =>
	await promise.then(
		() => undefined,
		(error: Error & { description?: string }) => error,
	);

describe("Retry On Fail's memory of what the service accepted", () => {
	it("a second try sends only the refused item and outputs the first try's answers", async () => {
		const { contextFor, sent } = tries((item, call) =>
			item === 1 && call === 1 ? refused : accepted(item),
		);
		const run = {};
		expect((await failure(runOperation.call(contextFor(run), submit)))?.message).toBe('Refused');
		const [output] = await runOperation.call(contextFor(run), submit);
		expect(output.map((item) => item.json.schedule_id)).toEqual([100, 101, 102]);
		expect([...sent].sort()).toEqual([0, 1, 1, 2]);
	});

	it('another run of the node (another execute-data object) sends everything again', async () => {
		const { contextFor, sent } = tries((item) => accepted(item));
		await runOperation.call(contextFor({}), submit);
		await runOperation.call(contextFor({}), submit);
		expect(sent).toHaveLength(6);
	});

	it('a submission whose answer was lost is never sent again: the retry fails it, saying so', async () => {
		const { contextFor, sent } = tries((item) => (item === 0 ? 'reset' : accepted(item)));
		const run = {};
		const first = await failure(runOperation.call(contextFor(run), submit));
		expect(first?.message).toMatch(/Could not reach/);
		const second = await failure(runOperation.call(contextFor(run), submit));
		expect(second?.description).toContain('Not sent again by Retry On Fail');
		expect(sent.filter((item) => item === 0)).toHaveLength(1);
		expect(sent.filter((item) => item === 1)).toHaveLength(1);
	});

	it('reads are sent again on every try', async () => {
		const read: ItemOperation = {
			description: [],
			prepare: (i: number) => ({
				request: { api: 'review', method: 'GET', path: '/probe', qs: { i } },
			}),
		};
		const { contextFor, sent } = tries((item) => accepted(item));
		const run = {};
		await runOperation.call(contextFor(run), read);
		await runOperation.call(contextFor(run), read);
		expect(sent).toHaveLength(6);
	});
});

describe('failed items for each On Error mode', () => {
	const refuseItem1 = (item: number) => (item === 1 ? refused : accepted(item));

	it('Continue (regular output): flat beside the others, with the description and HTTP code', async () => {
		const { contextFor } = tries(refuseItem1, { onError: 'continueRegularOutput' });
		const [output] = await runOperation.call(contextFor({}), submit);
		expect(output[1]).toEqual({
			json: {
				error: 'Refused',
				errorDescription: 'POST /probe answered HTTP 400',
				httpCode: '400',
			},
			pairedItem: { item: 1 },
		});
	});

	it('Continue (using error output), n8n 2.x: error, message and details, nothing else', async () => {
		const { contextFor } = tries(refuseItem1, { onError: 'continueErrorOutput' });
		const [output] = await runOperation.call(contextFor({}), submit);
		expect(output[1]).toEqual({
			json: {
				error: 'Refused',
				message: 'POST /probe answered HTTP 400',
				details: { httpCode: '400' },
			},
			pairedItem: { item: 1 },
		});
	});

	it('Continue (using error output), n8n 1.x (no context custom data): error and message only', async () => {
		const { contextFor } = tries(refuseItem1, { onError: 'continueErrorOutput' }, false);
		const [output] = await runOperation.call(contextFor({}), submit);
		expect(output[1].json).toEqual({
			error: 'Refused',
			message: 'POST /probe answered HTTP 400',
		});
	});
});
