import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	ITEM_CONCURRENCY,
	runOperation,
	type ItemOperation,
} from '../../../nodes/shared/operations';
import { waitForTurnToSend } from '../../../nodes/shared/sendOrder';
import { testNode } from '../helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function contextFor(itemCount: number, continueOnFail = false) {
	return {
		getInputData: () => Array.from({ length: itemCount }, (_, i) => ({ json: { i } })),
		continueOnFail: () => continueOnFail,
		getNode: () => testNode,
	} as unknown as IExecuteFunctions;
}

/**
 * An operation shaped like the real ones: checks its item (which may take a while or fail), then
 * waits for its turn and "sends", which takes a while.
 */
function operation(
	behaviour: {
		checkMs?: (i: number) => number;
		badItem?: number;
		refusedAtSend?: number;
		sendMs?: (i: number) => number;
	},
	itemConcurrency?: number,
) {
	const sent: number[] = [];
	let inFlight = 0;
	let peak = 0;
	const op: ItemOperation = {
		description: [],
		itemConcurrency,
		async execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
			await sleep(behaviour.checkMs?.(i) ?? 0);
			if (i === behaviour.badItem) {
				throw new NodeOperationError(testNode, `URL is not valid (item ${i})`, { itemIndex: i });
			}
			await waitForTurnToSend(this, i);
			sent.push(i);
			inFlight++;
			peak = Math.max(peak, inFlight);
			await sleep(behaviour.sendMs?.(i) ?? 5);
			inFlight--;
			if (i === behaviour.refusedAtSend) throw new Error(`Service refused item ${i}`);
			return { i };
		},
	};
	return { op, sent, peak: () => peak };
}

describe('the per-item loop runs items concurrently and keeps the one-by-one guarantees', () => {
	it('keeps the output in input order, paired with its item, whatever order items finish in', async () => {
		const { op, peak } = operation({ sendMs: (i) => (i % 3) * 7 });
		const [output] = await runOperation.call(contextFor(12), op);
		expect(output.map((item) => [item.json.i, item.pairedItem])).toEqual(
			Array.from({ length: 12 }, (_, i) => [i, { item: i }]),
		);
		expect(peak()).toBe(ITEM_CONCURRENCY);
	});

	it('runs one item at a time for an operation that asks for it', async () => {
		const { op, peak } = operation({}, 1);
		await runOperation.call(contextFor(6), op);
		expect(peak()).toBe(1);
	});

	it('sends nothing for an item before every earlier item has passed its checks', async () => {
		const { op, sent } = operation({ checkMs: (i) => (i === 0 ? 40 : 0) });
		await runOperation.call(contextFor(6), op);
		expect(sent[0]).toBe(0);
		expect([...sent].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
	});

	it('stops at a bad item: later items send nothing, earlier ones went through', async () => {
		const { op, sent } = operation({ badItem: 2, checkMs: (i) => (i === 2 ? 20 : 0) });
		await expect(runOperation.call(contextFor(10), op)).rejects.toThrow(
			'URL is not valid (item 2)',
		);
		expect([...sent].sort((a, b) => a - b)).toEqual([0, 1]);
	});

	it('with Continue On Fail, gives the bad item an error item in its place and runs the rest', async () => {
		const { op, sent } = operation({ badItem: 2 });
		const [output] = await runOperation.call(contextFor(6, true), op);
		expect(output.map((item) => item.json.i ?? item.json.error)).toEqual([
			0,
			1,
			'URL is not valid (item 2)',
			3,
			4,
			5,
		]);
		expect(sent).toHaveLength(5);
	});

	it('reports the first failing item, and names the later items already sent that went through', async () => {
		const { op } = operation({ refusedAtSend: 1, sendMs: (i) => (i === 1 ? 30 : 1) });
		const error = await runOperation.call(contextFor(10), op).then(
			() => undefined,
			(e: NodeOperationError) => e,
		);
		expect(error?.message).toBe('Service refused item 1');
		expect(error?.context.itemIndex).toBe(1);
		// Items 2–5 were sent while item 1 was in flight; nothing was started after it failed.
		expect(error?.description).toMatch(/^Items 2, 3, 4, 5(, \d+)*, already sent, went through/);
	});
});
