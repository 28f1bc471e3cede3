import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';

type LookupCallback = (
	error: NodeJS.ErrnoException | null,
	address: string | LookupAddress[],
	family?: number,
) => void;
type Resolve = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

export const UNRESOLVED_FOR_MS = 30_000;
const UNRESOLVABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA']);

/**
 * Name resolution for callback deliveries as a service's resolver does it: one lookup at a time
 * per name, and a name that did not resolve stays unresolved for a while (negative caching).
 * Without it, each attempt to deliver to a name that does not resolve (the tests' hooks.example.com,
 * offline) holds one of libuv's four threads for a lookup that cannot be cancelled: one e2e file
 * queued 723 of them, which kept jest's process alive about two minutes after its last test.
 */
export function cachingLookup(resolve: Resolve = lookup, now = Date.now): LookupFunction {
	const unresolved = new Map<string, { error: NodeJS.ErrnoException; at: number }>();
	const inFlight = new Map<string, LookupCallback[]>();
	const failure = (error: NodeJS.ErrnoException): NodeJS.ErrnoException =>
		Object.assign(new Error(error.message), {
			code: error.code,
			errno: error.errno,
			syscall: error.syscall,
			hostname: (error as { hostname?: string }).hostname,
		});

	return (hostname, options, callback) => {
		const failed = unresolved.get(hostname);
		if (failed && now() - failed.at < UNRESOLVED_FOR_MS) {
			process.nextTick(callback, failure(failed.error), '');
			return;
		}
		const key = `${hostname} ${JSON.stringify(options)}`;
		const waiting = inFlight.get(key);
		if (waiting) {
			waiting.push(callback);
			return;
		}
		inFlight.set(key, [callback]);
		resolve(hostname, options, (error, address, family) => {
			const callbacks = inFlight.get(key) ?? [];
			inFlight.delete(key);
			if (error?.code && UNRESOLVABLE.has(error.code)) {
				unresolved.set(hostname, { error, at: now() });
			}
			for (const each of callbacks) {
				if (error) each(failure(error), '');
				else each(null, address, family);
			}
		});
	};
}
