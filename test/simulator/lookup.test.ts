import type { LookupAddress, LookupOptions } from 'node:dns';

import { cachingLookup, UNRESOLVED_FOR_MS } from '../../simulator/lookup';

type Answer = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[] };

function notFound(hostname: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
		code: 'ENOTFOUND',
		syscall: 'getaddrinfo',
	});
}

/** A resolver that answers after 5 ms and counts its calls; `failing` names do not resolve. */
function fakeResolver(failing: Set<string>) {
	const calls: string[] = [];
	const resolve = (
		hostname: string,
		_options: LookupOptions,
		callback: (error: NodeJS.ErrnoException | null, address: string, family?: number) => void,
	) => {
		calls.push(hostname);
		setTimeout(() => {
			if (failing.has(hostname)) callback(notFound(hostname), '');
			else callback(null, '127.0.0.1', 4);
		}, 5);
	};
	return { resolve, calls };
}

function ask(
	lookup: ReturnType<typeof cachingLookup>,
	hostname: string,
	options: LookupOptions = {},
): Promise<Answer> {
	return new Promise((done) =>
		lookup(hostname, options, (error, address) => done({ error, address })),
	);
}

it('asks once for a burst of deliveries to one name, and every one gets the answer', async () => {
	const { resolve, calls } = fakeResolver(new Set(['hooks.example.com']));
	const lookup = cachingLookup(resolve);

	const answers = await Promise.all(
		Array.from({ length: 100 }, () => ask(lookup, 'hooks.example.com')),
	);
	const found = await Promise.all([ask(lookup, 'n8n.local'), ask(lookup, 'n8n.local')]);

	expect(calls).toEqual(['hooks.example.com', 'n8n.local']);
	expect(answers.map((answer) => answer.error?.code)).toEqual(Array(100).fill('ENOTFOUND'));
	expect(new Set(answers.map((answer) => answer.error)).size).toBe(100);
	expect(found.map((answer) => answer.address)).toEqual(['127.0.0.1', '127.0.0.1']);
});

it('keeps a name that did not resolve unresolved for a while, and asks again after', async () => {
	let clock = 1_000_000;
	const { resolve, calls } = fakeResolver(new Set(['hooks.example.com']));
	const lookup = cachingLookup(resolve, () => clock);

	await ask(lookup, 'hooks.example.com');
	clock += UNRESOLVED_FOR_MS - 1;
	const cached = await ask(lookup, 'hooks.example.com', { all: true });
	clock += 1;
	const again = await ask(lookup, 'hooks.example.com');

	expect(cached.error?.code).toBe('ENOTFOUND');
	expect(again.error?.code).toBe('ENOTFOUND');
	expect(calls).toEqual(['hooks.example.com', 'hooks.example.com']);
});

it('does not keep names that resolved: each later delivery looks them up', async () => {
	const { resolve, calls } = fakeResolver(new Set());
	const lookup = cachingLookup(resolve);

	await ask(lookup, 'n8n.local');
	await ask(lookup, 'n8n.local');

	expect(calls).toEqual(['n8n.local', 'n8n.local']);
});
