import type { INode } from 'n8n-workflow';

import { runOperation, type Operation } from '../../../../nodes/shared/outgoing/router';
import { itemOf, serviceContext, type ServiceAnswer } from '../../helpers';

/**
 * n8n's Retry On Fail calls execute() again with the same execute-data object: a stand-in that
 * does the same, and a service that answers each item as `answer(item, call)` says.
 */
function tries(
	answer: (item: number, call: number) => ServiceAnswer,
	node: Partial<INode> = {},
	customData = true,
) {
	const sent: number[] = [];
	const calls = new Map<number, number>();
	const contextFor = (executeData: object) =>
		serviceContext({
			items: [0, 1, 2].map((i) => ({ i })),
			node,
			continueOnFail: node.onError !== undefined && node.onError !== 'stopWorkflow',
			extra: {
				getExecuteData: () => executeData,
				...(customData ? { customData: { set: () => undefined, get: () => undefined } } : {}),
			},
			answer: (request) => {
				const item = itemOf(request);
				sent.push(item);
				calls.set(item, (calls.get(item) ?? 0) + 1);
				return answer(item, calls.get(item)!);
			},
		}).context;
	return { contextFor, sent };
}

const submit: Operation = {
	description: [],
	prepare: (i: number) => ({
		request: { api: 'review', method: 'POST', path: '/probe', qs: { i } },
	}),
};
const accepted = (item: number) => ({ statusCode: 200, body: { schedule_id: 100 + item } });
const refused = { statusCode: 200, body: { success: false, status: 400, message: 'Refused' } };

// What a retry sends again through the engine is test/engine/settingsMatrix.test.ts's (rows with
// Retry On Fail) and waitForCompletion.test.ts's (an answer lost is not sent again); so are the
// failed items of each On Error mode on n8n 2.x.
describe("Retry On Fail's memory of what the service accepted", () => {
	it('is kept per run of the node: another execute-data object sends everything again', async () => {
		const { contextFor, sent } = tries((item) => accepted(item));
		await runOperation.call(contextFor({}), submit);
		await runOperation.call(contextFor({}), submit);
		expect(sent).toHaveLength(6);
	});

	it('holds only submissions: reads are sent again on every try', async () => {
		const read: Operation = {
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

it('Continue (using error output) on n8n 1.x (no context custom data): error and message only', async () => {
	const { contextFor } = tries(
		(item) => (item === 1 ? refused : accepted(item)),
		{
			onError: 'continueErrorOutput',
		},
		false,
	);
	const [output] = await runOperation.call(contextFor({}), submit);
	expect(output[1].json).toEqual({ error: 'Refused', message: 'POST /probe answered HTTP 400' });
});
