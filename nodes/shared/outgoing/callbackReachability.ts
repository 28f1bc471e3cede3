import type { IDataObject, IExecuteFunctions, IHookFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { redactCallbackUrl } from '../redact';
import { optionsCollection } from './descriptions';
import { serviceBaseUrl, type ApiName, type ServiceRequest } from './transport';

/**
 * A job is billed when it is queued, and its results come back only to its callback URL. A
 * callback on localhost or a private network cannot be called by a service on the internet, so
 * such a job is paid for and its results are lost: it is refused before it is sent. The decision
 * is taken from the URLs alone, with no DNS lookup: a name that resolves to a private address is
 * let through, a name that only resolves inside a network is not.
 */

/** Why the host of `url` cannot be reached from the internet; undefined when it may be. */
export function unreachableHost(url: string): { host: string; reason: string } | undefined {
	let hostname: string;
	try {
		hostname = new URL(url).hostname.toLowerCase();
	} catch {
		return { host: url, reason: 'not a full URL with a host' };
	}
	const host = hostname.replace(/\.+$/, '');
	if (host === '') return { host: hostname, reason: 'not a full URL with a host' };
	const reason = host.startsWith('[') ? ipv6Reason(host.slice(1, -1)) : nameOrIpv4Reason(host);
	return reason === undefined ? undefined : { host, reason };
}

// Names that resolve only inside a network: mDNS (RFC 6762), Docker's and clouds' internal names,
// home routers' (RFC 8375) and the usual private suffixes.
const LOCAL_SUFFIXES = ['.local', '.internal', '.localdomain', '.lan', '.home.arpa'];

function nameOrIpv4Reason(host: string): string | undefined {
	if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
	// new URL() has already turned decimal, octal and hexadecimal IPv4 forms into dotted decimal.
	const octets = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host)?.slice(1).map(Number);
	if (octets) return ipv4Reason(octets);
	const suffix = LOCAL_SUFFIXES.find((local) => host.endsWith(local));
	if (suffix) return `a name on a local network (${suffix})`;
	if (!host.includes('.')) {
		return 'a single-label name, which resolves only inside its own network (a Docker service or a machine name)';
	}
	return undefined;
}

function ipv4Reason([a, b]: number[]): string | undefined {
	if (a === 0) return 'an address of this machine (0.0.0.0/8)';
	if (a === 127) return 'a loopback address';
	if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) {
		return 'a private network address';
	}
	if (a === 169 && b === 254) return 'a link-local address';
	if (a === 100 && b >= 64 && b <= 127)
		return 'a shared address (100.64.0.0/10, carrier-grade NAT)';
	return undefined;
}

function ipv6Reason(literal: string): string | undefined {
	const groups = ipv6Groups(literal);
	if (!groups) return undefined;
	if (groups.every((group) => group === 0)) return 'an address of this machine (::)';
	if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) {
		return 'a loopback address';
	}
	const isIpv4Mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
	if (isIpv4Mapped) {
		return ipv4Reason([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff]);
	}
	if ((groups[0] & 0xfe00) === 0xfc00) return 'a unique-local IPv6 address';
	if ((groups[0] & 0xffc0) === 0xfe80) return 'a link-local address';
	return undefined;
}

/** The eight 16-bit groups of an IPv6 literal as new URL() writes it (compressed, no IPv4 tail). */
function ipv6Groups(literal: string): number[] | undefined {
	const [head, tail] = literal.split('::');
	const parse = (part: string | undefined) =>
		part ? part.split(':').map((group) => parseInt(group, 16)) : [];
	const front = parse(head);
	const back = parse(tail);
	const groups =
		tail === undefined
			? front
			: [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
	return groups.length === 8 && groups.every((group) => Number.isInteger(group))
		? groups
		: undefined;
}

export const ALLOW_PRIVATE_CALLBACK = 'allowPrivateCallback';

/** The way out, for a service that does reach the private address (the same VPN, say). */
export const allowPrivateCallbackOption: INodeProperties = {
	displayName: 'Allow Private Callback URL',
	name: ALLOW_PRIVATE_CALLBACK,
	type: 'boolean',
	default: false,
	description:
		"Whether to send a callback URL on localhost, a private address or a local name (such as http://n8n:5678) although the service's URL in the credential is public. Turn on only when the service can reach it, e.g. over a VPN: otherwise the job is billed and its results never arrive.",
};

interface CallbackFound {
	url: string;
	/** Where it sits in the request: a list position names the profile it belongs to. */
	position?: number;
}

function callbacksIn(
	value: unknown,
	keys: readonly string[],
	position?: number,
	found: CallbackFound[] = [],
) {
	if (Array.isArray(value)) {
		value.forEach((element, index) => callbacksIn(element, keys, index, found));
	} else if (typeof value === 'object' && value !== null) {
		for (const [key, child] of Object.entries(value as IDataObject)) {
			if (keys.includes(key) && typeof child === 'string' && child.trim() !== '') {
				found.push({ url: child.trim(), position });
			} else {
				callbacksIn(child, keys, position, found);
			}
		}
	}
	return found;
}

/** n8n's own webhook paths: what N8N_WEBHOOK_URL sets the address of. */
const N8N_WEBHOOK_PATH = /\/(webhook|webhook-test|webhook-waiting|form-waiting)\//;

export interface CallbackSource {
	/** The URL Wait for Completion filled in: this execution's resume URL. */
	resumeUrl?: string;
	/** How the error names the callback when the request's own keys do not say it well. */
	field?: string;
}

type CheckContext = IExecuteFunctions | IHookFunctions;

/**
 * Refuses, before anything is sent, a request whose callback the service cannot reach: a private
 * or local host while the service itself is on a public host. A service on a local host (the
 * simulator, a service in the same network) is given any callback.
 */
export async function refuseUnreachableCallbacks(
	this: CheckContext,
	request: ServiceRequest,
	itemIndex: number,
	source: CallbackSource = {},
): Promise<void> {
	// Where its endpoint's row says the service reads a callback address.
	const keys = request.callbackKeys ?? [];
	const callbacks = [...callbacksIn(request.qs, keys), ...callbacksIn(request.body, keys)];
	if (callbacks.length === 0) return;
	const baseUrl = await baseUrlOnce(this, request.api);
	if (baseUrl === undefined || unreachableHost(baseUrl)) return;
	for (const { url, position } of callbacks) {
		const unreachable = unreachableHost(url);
		if (!unreachable) continue;
		if (isPrivateCallbackAllowed(this, itemIndex)) return;
		throw unreachableError(this, itemIndex, url, unreachable, fieldName(url, position, source));
	}
}

// One read of the credential per run and API, not one per item: a run can hold thousands.
const baseUrls = new WeakMap<CheckContext, Map<ApiName, Promise<string | undefined>>>();

async function baseUrlOnce(context: CheckContext, api: ApiName): Promise<string | undefined> {
	let byApi = baseUrls.get(context);
	if (!byApi) baseUrls.set(context, (byApi = new Map()));
	let baseUrl = byApi.get(api);
	if (!baseUrl) byApi.set(api, (baseUrl = serviceBaseUrl.call(context, api)));
	return await baseUrl;
}

function isPrivateCallbackAllowed(context: CheckContext, itemIndex: number): boolean {
	const options = (
		'getInputData' in context
			? context.getNodeParameter('options', itemIndex, {})
			: context.getNodeParameter('options', {})
	) as IDataObject;
	return options?.[ALLOW_PRIVATE_CALLBACK] === true;
}

function fieldName(url: string, position: number | undefined, source: CallbackSource): string {
	if (source.resumeUrl !== undefined && url === source.resumeUrl) {
		return "Wait for Completion's callback (this execution's resume URL)";
	}
	if (source.field !== undefined) return source.field;
	// A list in a request is add_bulk's profiles.
	return position === undefined ? 'Callback URL' : `Callback URL of profile ${position + 1}`;
}

function unreachableError(
	context: CheckContext,
	itemIndex: number,
	url: string,
	{ host, reason }: { host: string; reason: string },
	field: string,
): NodeOperationError {
	const whatToDo = N8N_WEBHOOK_PATH.test(url)
		? "This is n8n's own address: set n8n's N8N_WEBHOOK_URL environment variable (WEBHOOK_URL on n8n 1.x) to the public address the service can reach n8n at (a reverse proxy or a tunnel in front of n8n), restart n8n and try again."
		: 'Give a public URL the service can reach.';
	const wayOut =
		'If the service can reach this address after all (the same private network or VPN), turn on the option "Allow Private Callback URL".';
	const refused = `${field} cannot be reached by the service: ${redactCallbackUrl(url)}`;
	const why = `${host} is ${reason}: the service, on the internet, cannot call it, so the job would be billed and its results would never arrive.`;
	if (!('getInputData' in context)) {
		// n8n shows an activation error's message alone, where the user publishes: all of it goes there.
		return new NodeOperationError(
			context.getNode(),
			`${refused}. ${why} No schedule was created. ${whatToDo} ${wayOut}`,
		);
	}
	return new NodeOperationError(context.getNode(), `${refused} (item ${itemIndex})`, {
		itemIndex,
		description: `${why} Nothing was sent for this item. ${whatToDo} ${wayOut}`,
	});
}

/** An Options collection holding the way out, for an operation that has no Options of its own. */
export const callbackOptions: INodeProperties = optionsCollection([allowPrivateCallbackOption]);

const REACH_NO_WORKFLOW =
	"reach no workflow: the review API has no endpoint that returns a job's reviews, so they are only in the service's dashboard.";

/** How Profile → Add and Add Many say it: Add Many has no Wait for Completion. */
const NO_DESTINATION = {
	add: {
		notice: 'The reviews of this job',
		hint: 'Jobs were',
		remedy:
			"To receive them in n8n, set a Callback URL (a Scraping Callback Trigger's Production URL) or turn on Wait for Completion.",
	},
	addMany: {
		notice: 'The reviews of profiles without a callback of their own, while Callback URL is empty,',
		hint: 'Profiles were',
		remedy:
			"To receive them in n8n, give them a callback: a Scraping Callback Trigger's Production URL in Callback URL.",
	},
};

type DestinationOf = keyof typeof NO_DESTINATION;

/** The notice shown while neither destination is set. */
export const noDestinationNotice = (
	operation: DestinationOf,
	show: IDataObject,
): INodeProperties => ({
	displayName: `${NO_DESTINATION[operation].notice} ${REACH_NO_WORKFLOW} ${NO_DESTINATION[operation].remedy}`,
	name: 'noDestinationNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: show as NonNullable<INodeProperties['displayOptions']>['show'] },
});

const hinted = new WeakSet<IExecuteFunctions>();

/**
 * Not refused (the service's dashboard shows the reviews), but said once per run in the output
 * panel, where a user looks for the reviews that never come.
 */
export function hintNoDestination(this: IExecuteFunctions, operation: DestinationOf): void {
	if (hinted.has(this)) return;
	hinted.add(this);
	const { hint, remedy } = NO_DESTINATION[operation];
	// Older n8n versions have no execution hints for community nodes: the form's notice remains.
	this.addExecutionHints?.({
		message: `${hint} sent without a callback: their reviews ${REACH_NO_WORKFLOW} ${remedy}`,
		type: 'warning',
		location: 'outputPane',
	});
}
