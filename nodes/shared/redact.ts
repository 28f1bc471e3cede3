import { ENDPOINTS, type EndpointTable } from './endpoints';

/** Where a trigger's shared secret travels in its callback address. */
export const SECRET_QUERY_PARAMETER = 'secret';

/** Where a waiting node's own token travels in its callback address (n8n 1.x, no signature). */
export const RESUME_TOKEN_PARAMETER = 'resume_token';

/**
 * Query parameters that carry a secret in a callback address: the trigger's shared secret, the
 * signature of n8n's resume URL and the node's own resume token where n8n has no signature (whoever
 * holds either can resume the waiting execution).
 */
const SECRET_QUERY_PARAMETERS = [SECRET_QUERY_PARAMETER, 'signature', RESUME_TOKEN_PARAMETER];

/** The keys holding a callback address: the table's, and the nodes' own parameter for one. */
export function callbackKeys(table: EndpointTable): ReadonlySet<string> {
	const keys = table.endpoints.flatMap((endpoint) => endpoint.callbackKeys ?? []);
	return new Set([...keys, 'callbackUrl']);
}

export const CALLBACK_KEYS = callbackKeys(ENDPOINTS);
export const REDACTED = '***';

/** A callback address with the value of each secret query parameter replaced. */
export function redactCallbackUrl(url: string): string {
	const queryStart = url.indexOf('?');
	if (queryStart < 0) return url;
	const [query, fragment] = url.slice(queryStart + 1).split(/#(.*)/s, 2);
	let changed = false;
	const parameters = query.split('&').map((parameter) => {
		const [name, value] = parameter.split(/=(.*)/s, 2);
		let decoded = name;
		try {
			decoded = decodeURIComponent(name);
		} catch {
			// Not percent-encoded text: compared as it is.
		}
		if (!SECRET_QUERY_PARAMETERS.includes(decoded.toLowerCase()) || !value) return parameter;
		changed = true;
		return `${name}=${REDACTED}`;
	});
	if (!changed) return url;
	return `${url.slice(0, queryStart)}?${parameters.join('&')}${fragment === undefined ? '' : `#${fragment}`}`;
}

/**
 * The service echoes the callback address it was given (`request_metadata.callback_url`, a
 * schedule's `callback` query parameter or body field), and that address can carry the trigger's
 * secret or n8n's resume signature. Every such echo is redacted before it reaches an item, an
 * error or a log; the rest of the value is returned as it came (the same objects where nothing
 * changed, so large result lists are not copied).
 */
export function redactEchoedSecrets<T>(value: T, keys = CALLBACK_KEYS): T {
	return redact(value, false, keys) as T;
}

function redact(value: unknown, underCallbackKey: boolean, keys: ReadonlySet<string>): unknown {
	if (typeof value === 'string') return underCallbackKey ? redactCallbackUrl(value) : value;
	if (typeof value !== 'object' || value === null) return value;
	// Plain loops: a delivery of 100 MiB has millions of values, and Object.entries made a pair for
	// each of them only to find, nearly always, nothing to redact.
	if (Array.isArray(value)) {
		let copy: unknown[] | undefined;
		for (let index = 0; index < value.length; index++) {
			const element: unknown = value[index];
			const redacted = redact(element, underCallbackKey, keys);
			if (redacted !== element) (copy ??= [...value])[index] = redacted;
		}
		return copy ?? value;
	}
	let copy: Record<string, unknown> | undefined;
	const object = value as Record<string, unknown>;
	for (const key of Object.keys(object)) {
		const child = object[key];
		const redacted = redact(child, keys.has(key), keys);
		if (redacted !== child) (copy ??= { ...object })[key] = redacted;
	}
	return copy ?? value;
}
