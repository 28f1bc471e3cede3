import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { markMaybeAccepted } from '../../../../nodes/shared/outgoing/transport';
import { toolCaller, type ToolCaller } from '../../../../nodes/shared/host/internals';
import { answerFailure, toolRefusalWords } from '../../../../nodes/shared/outgoing/toolAnswer';
import { invalidParameter } from '../../../../nodes/shared/outgoing/validation';
import { refuseWaitingForSuppliedTool } from '../../../../nodes/shared/waiting/wait';
import { testNode } from '../../helpers';

const node = (type: string): INode => ({ ...testNode, name: 'Respond Job', type });

const TOOL = 'n8n-nodes-review-scraping.reviewScraperTool';
const AGENT = { name: 'AI Agent', type: '@n8n/n8n-nodes-langchain.agent' };
const MCP = { name: 'MCP Server', type: '@n8n/n8n-nodes-langchain.mcpTrigger' };

/** A context as n8n gives it: the node, and the execute data of whoever runs it. */
function context(
	type: string,
	runBy?: { name: string; type: string },
	isToolExecution?: boolean,
): IExecuteFunctions {
	const self = node(type);
	return {
		...(isToolExecution === undefined ? {} : { isToolExecution: () => isToolExecution }),
		getNode: () => self,
		getExecuteData: () => ({ node: runBy ? { ...node(runBy.type), name: runBy.name } : self }),
	} as unknown as IExecuteFunctions;
}

/** As n8n 1.x gives them: no isToolExecution(). */
const contexts: Record<ToolCaller, IExecuteFunctions> = {
	workflow: context('n8n-nodes-review-scraping.reviewScraper'),
	engine: context(TOOL),
	agentExecutor: context(TOOL, AGENT),
	supplied: context(TOOL, MCP),
};

const refusal = () =>
	new NodeApiError(
		node(TOOL),
		{ message: "This job ID doesn't exist, please create it" },
		{
			message: "This job ID doesn't exist, please create it",
			description: 'GET /api/v2/responds/jobs/9 answered HTTP 404',
			httpCode: '404',
		},
	);

describe('who calls the tool', () => {
	it.each<[string, ToolCaller, IExecuteFunctions]>([
		...Object.entries(contexts).map(([caller, ctx]): [string, ToolCaller, IExecuteFunctions] => [
			'1.x',
			caller as ToolCaller,
			ctx,
		]),
		['2.x', 'engine', context(TOOL, undefined, false)],
		['2.x', 'agentExecutor', context(TOOL, AGENT, true)],
		['2.x', 'supplied', context(TOOL, MCP, true)],
		// A queue-mode worker runs an MCP Server Trigger's call in the tool's own execute data.
		['2.x', 'supplied', context(TOOL, undefined, true)],
	])('on n8n %s, tells %s apart', (_n8n, expected, ctx) => {
		expect(toolCaller(ctx)).toBe(expected);
	});
});

describe("a refusal's words for a model", () => {
	it('says the message, what failed and what to do, one sentence each', () => {
		expect(toolRefusalWords(refusal())).toBe(
			"This job ID doesn't exist, please create it. GET /api/v2/responds/jobs/9 answered HTTP 404. " +
				'Nothing has that id: check it (a list operation can find it) before calling again.',
		);
	});

	it.each([
		['401', 'refused the credentials'],
		['429', 'wait before calling again'],
		['503', 'try again later'],
		['400', 'correct them before calling again'],
	])('advises on HTTP %s', (httpCode, advice) => {
		const error = new NodeApiError(node(TOOL), { message: 'No' }, { message: 'No', httpCode });
		expect(toolRefusalWords(error)).toContain(advice);
	});

	it('tells a refused argument and that nothing was sent, or warns when it may have been accepted', () => {
		expect(toolRefusalWords(invalidParameter(node(TOOL), 0, 'Job ID', 'is required'))).toMatch(
			/Job ID is required.*Nothing was sent.*before calling the tool again/,
		);
		expect(toolRefusalWords(markMaybeAccepted(refusal()))).toContain('do not call the tool again');
	});
});

describe('a failure as each caller reads it', () => {
	it.each([
		['an AgentExecutor, which drops thrown errors', contexts.agentExecutor],
		["n8n 1.x's engine, which fails the execution on a tool's throw", contexts.engine],
	])('returns it as an item to %s', (_caller, ctx) => {
		expect(answerFailure.call(ctx, refusal())).toEqual([
			[{ json: { error: toolRefusalWords(refusal()) }, pairedItem: { item: 0 } }],
		]);
	});

	it.each([
		['an engine that reads thrown errors (n8n 2.x)', context(TOOL, undefined, false)],
		['the MCP Server Trigger', contexts.supplied],
	])('throws it with the words as its message to %s', (_caller, ctx) => {
		const error = refusal();
		expect(() => answerFailure.call(ctx, error)).toThrow(toolRefusalWords(refusal()));
		expect(error.description).toBeNull();
	});

	it('leaves a workflow error as it was', () => {
		const error = refusal();
		expect(() => answerFailure.call(contexts.workflow, error)).toThrow(
			"This job ID doesn't exist, please create it",
		);
		expect(error.message).toBe("This job ID doesn't exist, please create it");
		expect(error.description).toBe('GET /api/v2/responds/jobs/9 answered HTTP 404');
	});

	it('refuses Wait for Completion where the tool cannot wait, before anything is sent', () => {
		expect(() => refuseWaitingForSuppliedTool.call(contexts.agentExecutor, 0)).toThrow(
			NodeOperationError,
		);
		expect(() => refuseWaitingForSuppliedTool.call(contexts.supplied, 0)).toThrow(
			'MCP Server Trigger',
		);
		expect(() => refuseWaitingForSuppliedTool.call(contexts.engine, 0)).not.toThrow();
		expect(() => refuseWaitingForSuppliedTool.call(contexts.workflow, 0)).not.toThrow();
	});
});
