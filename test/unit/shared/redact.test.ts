import { REDACTED, redactCallbackUrl, redactEchoedSecrets } from '../../../nodes/shared/redact';

describe('redactCallbackUrl', () => {
	it.each([
		['https://h/a/callback?secret=s3cr3t', `https://h/a/callback?secret=${REDACTED}`],
		['https://h/w?a=1&secret=s&b=2#frag', `https://h/w?a=1&secret=${REDACTED}&b=2#frag`],
		['https://h/w/9/n?signature=abc', `https://h/w/9/n?signature=${REDACTED}`],
		['https://h/w/9/n?resume_token=t0k3n', `https://h/w/9/n?resume_token=${REDACTED}`],
		['https://h/w?SECRET=x', `https://h/w?SECRET=${REDACTED}`],
		['https://h/w?secret=', 'https://h/w?secret='],
		['https://h/w?secretive=1', 'https://h/w?secretive=1'],
		['https://h/w', 'https://h/w'],
	])('%s → %s', (url, expected) => {
		expect(redactCallbackUrl(url)).toBe(expected);
	});
});

describe('redactEchoedSecrets', () => {
	it('redacts callback addresses at any depth and leaves other URLs alone', () => {
		const cdn = 'https://cdn.example.com/img.jpg?signature=keep';
		const body = {
			request_metadata: { callback_url: 'https://h/c?secret=one' },
			results: [{ payload: { query_params: { callback: 'https://h/c?secret=two' } }, image: cdn }],
			body: [{ callback: 'https://h/c?secret=three' }],
		};
		const text = JSON.stringify(redactEchoedSecrets(body));
		for (const secret of ['one', 'two', 'three']) expect(text).not.toContain(`secret=${secret}`);
		expect(text).toContain(cdn);
		expect(body.request_metadata.callback_url).toBe('https://h/c?secret=one');
	});

	it('returns the same objects where nothing needed redacting', () => {
		const results = [{ post_id: '1' }, { post_id: '2' }];
		const body = { request_metadata: { callback_url: 'https://h/c?secret=x' }, results };
		const redacted = redactEchoedSecrets(body);
		expect(redacted).not.toBe(body);
		expect(redacted.results).toBe(results);
		const clean = { results };
		expect(redactEchoedSecrets(clean)).toBe(clean);
	});
});
