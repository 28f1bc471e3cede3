import type { IExecuteFunctions, INode, IWebhookFunctions } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import {
	executionCustomData,
	failResumedNode,
	isN8n2,
	readExecutionCustomData,
	resumedFailure,
} from '../../../../nodes/shared/host/internals';

const node = { id: 'n1', name: 'Review Scraper' } as INode;

function context(extra: object): IExecuteFunctions {
	return { getNode: () => node, ...extra } as unknown as IExecuteFunctions;
}

function memoryStore() {
	const data = new Map<string, string>();
	return { set: (k: string, v: string) => data.set(k, v), get: (k: string) => data.get(k) };
}

/** n8n 1.x's execute context: no customData, `$execution.customData` through the data proxy. */
function n8n1ExecuteContext(store = memoryStore()) {
	const proxyCalls: number[] = [];
	const ctx = context({
		getWorkflowDataProxy: (itemIndex: number) => {
			proxyCalls.push(itemIndex);
			return { $execution: { customData: store } };
		},
	});
	return { ctx, store, proxyCalls };
}

describe('execution custom data, detected rather than assumed', () => {
	it('is the context’s own store where n8n offers one (2.x)', () => {
		const store = memoryStore();
		const ctx = context({ customData: store });
		expect(executionCustomData(ctx)).toBe(store);
		expect(isN8n2(ctx)).toBe(true);
	});

	it('is $execution.customData through the data proxy on n8n 1.x, for the item asked', () => {
		const { ctx, store, proxyCalls } = n8n1ExecuteContext();
		expect(executionCustomData(ctx, 3)).toBe(store);
		expect(proxyCalls).toEqual([3]);
		expect(isN8n2(ctx)).toBe(false);
	});

	it('is undefined where the context has neither (no execution behind it)', () => {
		expect(executionCustomData(context({}))).toBeUndefined();
		const noStore = context({ getWorkflowDataProxy: () => ({ $execution: {} }) });
		expect(executionCustomData(noStore)).toBeUndefined();
	});

	it('is undefined where n8n 2.x throws for a context without an execution', () => {
		const ctx = context({});
		Object.defineProperty(ctx, 'customData', {
			get() {
				throw new Error('Cannot access customData: runExecutionData is not available');
			},
		});
		expect(executionCustomData(ctx)).toBeUndefined();
		expect(isN8n2(ctx)).toBe(false);
	});

	it('is read in n8n 1.x’s webhook context through the keys its expressions get', () => {
		const store = memoryStore();
		store.set('awaiting_n1', 'job-7');
		const webhook = {
			getNode: () => node,
			additionalKeys: { $execution: { customData: store } },
		} as unknown as IWebhookFunctions;
		expect(readExecutionCustomData(webhook, 'awaiting_n1')).toBe('job-7');
		expect(readExecutionCustomData(webhook, 'other')).toBeUndefined();
		const bare = { getNode: () => node } as unknown as IWebhookFunctions;
		expect(readExecutionCustomData(bare, 'awaiting_n1')).toBeUndefined();
	});
});

describe('a resumed node that failed, on each n8n', () => {
	const error = new NodeOperationError(node, 'Job 7 ended with status "failed"', {
		description: 'It delivered no results.',
	});
	const resumeEntry = () => ({ node: { ...node, disabled: true }, metadata: {} });

	it('n8n 2.x raises it from the resume entry; the item goes on unmarked', () => {
		const executeData = resumeEntry();
		const webhook = { getNode: () => node, executeData, customData: memoryStore() };
		const json = failResumedNode(webhook as unknown as IWebhookFunctions, error, { error: 'x' });
		expect(json).toEqual({ error: 'x' });
		expect(executeData.metadata).toEqual({ resumeError: error });
	});

	it('n8n 1.x runs the node again on the marked item, whose execute() throws the same failure', () => {
		const executeData = resumeEntry();
		const webhook = { getNode: () => node, executeData } as unknown as IWebhookFunctions;
		const json = failResumedNode(webhook, error, { error: 'x' });
		expect(executeData.node.disabled).toBe(false);
		const rerun = context({ getInputData: () => [{ json }] });
		expect(resumedFailure(rerun, 0)).toMatchObject({
			message: error.message,
			description: 'It delivered no results.',
		});
		const otherNode = { getNode: () => ({ ...node, id: 'n2' }), getInputData: () => [{ json }] };
		expect(resumedFailure(otherNode as unknown as IExecuteFunctions, 0)).toBeUndefined();
	});
});
