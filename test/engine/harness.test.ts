import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	IWebhookFunctions,
} from 'n8n-workflow';

import { runWorkflow } from './harness';

/**
 * What the harness does in n8n's place and no node test would notice if it did wrong: the resume
 * URL it signs, and the two ways a waiting execution goes on. Credentials, items and errors are
 * proven by every other engine test, against the simulator.
 */
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
		return { webhookResponse: { received: true }, workflowData: [[{ json: this.getBodyData() }]] };
	}
}

it('waits, then resumes from the webhook or passes its input through when the time runs out', async () => {
	const run = await runWorkflow({
		nodes: [{ name: 'Wait', type: 'test.waitForCallback' }],
		nodeTypes: { 'test.waitForCallback': new WaitForCallback() },
		inputItems: [{ json: { n: 1 } }, { json: { n: 2 } }],
		executionId: '42',
		baseUrl: 'http://127.0.0.1:5678',
	});
	expect([run.status, run.waitTill]).toEqual(['waiting', expect.any(Date)]);
	expect(run.resumeUrl).toMatch(
		/^http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/42\?signature=[0-9a-f]{64}$/,
	);
	expect(run.json('Wait')[0].resumeUrl).toBe(run.resumeUrl);

	const resumed = await run.resume({ body: { callback: 'done' } });
	expect([resumed.status, resumed.webhookResponse]).toEqual(['success', { received: true }]);
	expect(resumed.json('Wait')).toEqual([{ callback: 'done' }]);

	const expired = await run.expire();
	expect(expired.status).toBe('success');
	expect(expired.json('Wait')).toEqual([{ n: 1 }, { n: 2 }]);
});
