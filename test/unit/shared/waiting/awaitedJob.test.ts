import type { IExecuteFunctions, INode } from 'n8n-workflow';

import {
	awaitedJobKey,
	decodeAwaitedJob,
	digestToken,
	encodeAwaitedJob,
	requireExecutionCustomData,
	resumeCallbackAddress,
	tokenMatches,
} from '../../../../nodes/shared/waiting/awaitedJob';

describe('what a waiting execution waits for', () => {
	it('keys custom data by node ID in the characters n8n allows, at most 50', () => {
		expect(awaitedJobKey('3f1c-9a')).toBe('awaiting_3f1c_9a');
		expect(awaitedJobKey('x'.repeat(60))).toHaveLength(50);
	});

	it.each([
		[{}, 'pending'],
		[{ id: 'job-1' }, 'job-1'],
		[{ tokenDigest: 'abc_-9' }, 'token:abc_-9:pending'],
		[{ id: 'a:b:c', tokenDigest: 'abc_-9' }, 'token:abc_-9:a:b:c'],
	])('round-trips %j as %s', (job, stored) => {
		expect(encodeAwaitedJob(job)).toBe(stored);
		expect(decodeAwaitedJob(stored)).toEqual({ id: undefined, tokenDigest: undefined, ...job });
	});

	it('keeps only a digest of the token, and matches the token against it', () => {
		const { token } = resumeCallbackAddress('http://h/webhook-waiting/1', 'n');
		const digest = digestToken(token as string);
		expect(digest).not.toContain(token as string);
		expect(tokenMatches(token, digest)).toBe(true);
		for (const wrong of [`${token}x`, '', undefined, ['x'], (token as string).slice(1)]) {
			expect(tokenMatches(wrong, digest)).toBe(false);
		}
		expect(tokenMatches(token, 'not-a-digest')).toBe(false);
	});

	it.each([undefined, '', 'token:abc'])('reads nothing from %p', (stored) => {
		expect(decodeAwaitedJob(stored)).toBeUndefined();
	});

	// n8n 2.x's signed resume URL, kept with the node ID before the query, is
	// test/engine/waitForCompletion.test.ts's first case.
	it('adds a fresh token of its own to n8n 1.x’s unsigned resume URL', () => {
		const unsigned = 'http://127.0.0.1:5678/webhook-waiting/41';
		const first = resumeCallbackAddress(unsigned, 'node-1');
		const second = resumeCallbackAddress(`${unsigned}/`, 'node-1');
		expect(first.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(first.url).toBe(`${unsigned}/node-1?resume_token=${first.token}`);
		expect(second.url).toBe(`${unsigned}/node-1?resume_token=${second.token}`);
		expect(second.token).not.toBe(first.token);
	});

	it('refuses Wait for Completion where there is no custom data at all, before sending', () => {
		const node = { id: 'n1', name: 'Review Scraper' } as INode;
		const context = (extra: object) =>
			({ getNode: () => node, ...extra }) as unknown as IExecuteFunctions;
		expect(() => requireExecutionCustomData.call(context({}), 0)).toThrow(
			/^Wait for Completion needs the execution's custom data/,
		);
		const store = { set: () => undefined, get: () => undefined };
		const n8n1 = context({ getWorkflowDataProxy: () => ({ $execution: { customData: store } }) });
		expect(requireExecutionCustomData.call(n8n1, 0)).toBe(store);
	});
});
