import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	FollowUp,
	ITEM_CONCURRENCY,
	runOperation,
	type Operation,
} from '../../../../nodes/shared/outgoing/router';
import { itemOf, serviceContext, testNode } from '../../helpers';

const probe = (i: number) => ({
	api: 'review' as const,
	method: 'GET' as const,
	path: '/probe',
	qs: { i },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `itemCount` items, each request answered after `sendMs`; `peak` is the most ever in flight. */
function contextFor(
	itemCount: number,
	continueOnFail = false,
	sendMs: (i: number) => number = () => 5,
) {
	let inFlight = 0;
	let peak = 0;
	const { context, sent } = serviceContext({
		items: Array.from({ length: itemCount }, (_, i) => ({ i })),
		continueOnFail,
		answer: async (request) => {
			peak = Math.max(peak, ++inFlight);
			await sleep(sendMs(itemOf(request)));
			inFlight--;
			return { statusCode: 200, body: { i: itemOf(request) } };
		},
	});
	return { context, sent, peak: () => peak };
}

/**
 * An operation shaped like the real ones: prepares its item (which may fail its checks), and turns
 * the answer into output (which may fail too, after the request went out).
 */
function operation(behaviour: { badItem?: number; refusedAtSend?: number; onCheck?: () => void }) {
	const op: Operation = {
		description: [],
		prepare(this: IExecuteFunctions, i: number) {
			behaviour.onCheck?.();
			if (i === behaviour.badItem) {
				throw new NodeOperationError(testNode, `URL is not valid (item ${i})`, { itemIndex: i });
			}
			return {
				request: probe(i),
				toOutput: (answer: IDataObject) => {
					if (i === behaviour.refusedAtSend) throw new Error(`Service refused item ${i}`);
					return answer;
				},
			};
		},
	};
	return op;
}

describe('the per-item loop runs items concurrently and keeps the one-by-one guarantees', () => {
	it('checks every item before sending, keeps the output in input order, paired with its item', async () => {
		const { context, peak, sent } = contextFor(12, false, (i) => (i % 3) * 7);
		const sentWhenChecked: number[] = [];
		const op = operation({ onCheck: () => sentWhenChecked.push(sent.length) });
		const [output] = await runOperation.call(context, op);
		expect(sentWhenChecked).toEqual(Array(12).fill(0));
		expect(output.map((item) => [item.json.i, item.pairedItem])).toEqual(
			Array.from({ length: 12 }, (_, i) => [i, { item: i }]),
		);
		expect(peak()).toBe(ITEM_CONCURRENCY);
	});

	it('runs one item at a time for an operation that asks for it', async () => {
		const { context, peak } = contextFor(6);
		await runOperation.call(context, { ...operation({}), oneAtATime: true });
		expect(peak()).toBe(1);
	});

	it('stops at a bad item with nothing sent, the items before it included', async () => {
		const { context, sent } = contextFor(10);
		const checked: number[] = [];
		const op = operation({ badItem: 2, onCheck: () => checked.push(checked.length) });
		await expect(runOperation.call(context, op)).rejects.toThrow('URL is not valid (item 2)');
		expect(sent).toEqual([]);
		// Items after the bad one are not even read.
		expect(checked).toEqual([0, 1, 2]);
	});

	it('with Continue On Fail, sends every good item and gives the bad one its error item', async () => {
		const { context, sent } = contextFor(4, true);
		const [output] = await runOperation.call(context, operation({ badItem: 2 }));
		expect(sent.map(itemOf).sort((a, b) => a - b)).toEqual([0, 1, 3]);
		expect(output.map((item) => [item.json.i ?? item.json.error, item.pairedItem])).toEqual([
			[0, { item: 0 }],
			[1, { item: 1 }],
			['URL is not valid (item 2)', { item: 2 }],
			[3, { item: 3 }],
		]);
	});

	// Continue On Fail and the error output, for an item refused before sending, are
	// test/engine/settingsMatrix.test.ts's.
	it('reports the first failing item, and names the items the service already accepted', async () => {
		const { context } = contextFor(10, false, (i) => (i === 1 ? 30 : 1));
		const op = operation({ refusedAtSend: 1 });
		const error = await runOperation.call(context, op).then(
			() => undefined,
			(e: NodeOperationError) => e,
		);
		expect(error?.message).toBe('Service refused item 1');
		expect(error?.context.itemIndex).toBe(1);
		// Items 2–5 were sent while item 1 was in flight; nothing was started after it failed.
		expect(error?.description).toMatch(
			/^\d+ items were already accepted by the service before the run stopped: do not send them again \(item 0; item 2; item 3; item 4; item 5(; item \d+)*\)\.$/,
		);
	});
});

describe('requests that follow from an answer are declared, and sent for the same item', () => {
	it('sends the follow-up, then every page its answer counts, and links the output to the item', async () => {
		const { context, sent } = contextFor(1);
		const op: Operation = {
			description: [],
			prepare: () => ({
				request: probe(0),
				toOutput: () =>
					new FollowUp({
						request: probe(10),
						toOutput: () =>
							new FollowUp({
								pages: {
									request: (page) => probe(100 + page),
									read: (answer) => ({ items: [answer as IDataObject], totalPages: 3 }),
									concurrency: 2,
								},
							}),
					}),
			}),
		};
		const [output] = await runOperation.call(context, op);
		expect(sent.map(itemOf)).toEqual([0, 10, 101, 102, 103]);
		expect(output).toEqual([101, 102, 103].map((i) => ({ json: { i }, pairedItem: { item: 0 } })));
	});
});
