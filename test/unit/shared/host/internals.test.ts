import type { IExecuteFunctions, INode, IWebhookFunctions } from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import {
	engineToolThrowFailsExecution,
	errorOutputTakesDetails,
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

const memoryStore = () => new Map<string, string>();

describe('execution custom data, detected rather than assumed', () => {
	it('is the context’s own store where n8n offers one (2.x)', () => {
		const store = memoryStore();
		const ctx = context({ customData: store });
		expect(executionCustomData(ctx)).toBe(store);
		expect(isN8n2(ctx)).toBe(true);
	});

	it('is $execution.customData through the data proxy on n8n 1.x, for the item asked', () => {
		const store = memoryStore();
		const proxyCalls: number[] = [];
		const ctx = context({
			getWorkflowDataProxy: (itemIndex: number) => {
				proxyCalls.push(itemIndex);
				return { $execution: { customData: store } };
			},
		});
		expect(executionCustomData(ctx, 3)).toBe(store);
		expect(proxyCalls).toEqual([3]);
		expect(isN8n2(ctx)).toBe(false);
	});

	it('is undefined where the context has none, or n8n 2.x throws for want of an execution', () => {
		expect(executionCustomData(context({}))).toBeUndefined();
		const noStore = context({ getWorkflowDataProxy: () => ({ $execution: {} }) });
		expect(executionCustomData(noStore)).toBeUndefined();
		const throwing = context({});
		Object.defineProperty(throwing, 'customData', {
			get() {
				throw new Error('Cannot access customData: runExecutionData is not available');
			},
		});
		expect(executionCustomData(throwing)).toBeUndefined();
		expect(isN8n2(throwing)).toBe(false);
	});

	it('is read in n8n 1.x’s webhook context through the keys its expressions get', () => {
		const store = new Map([['awaiting_n1', 'job-7']]);
		const webhook = (extra: object) =>
			({ getNode: () => node, ...extra }) as unknown as IWebhookFunctions;
		const withKeys = webhook({ additionalKeys: { $execution: { customData: store } } });
		expect(readExecutionCustomData(withKeys, 'awaiting_n1')).toBe('job-7');
		expect(readExecutionCustomData(withKeys, 'other')).toBeUndefined();
		expect(readExecutionCustomData(webhook({}), 'awaiting_n1')).toBeUndefined();
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

describe('what differs between n8n 1.x and 2.x, told where the difference is used', () => {
	it('the error output takes `details` on 2.x only', () => {
		expect(errorOutputTakesDetails(context({ customData: memoryStore() }))).toBe(true);
		expect(errorOutputTakesDetails(context({}))).toBe(false);
	});

	it('a tool the engine runs fails the execution when it throws on 1.x, which has no isToolExecution()', () => {
		expect(engineToolThrowFailsExecution(context({}))).toBe(true);
		expect(engineToolThrowFailsExecution(context({ isToolExecution: () => false }))).toBe(false);
	});
});
