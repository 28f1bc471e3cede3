import type { ApiName, FaultKind, FaultSpecBody } from './schemas';

export interface Fault {
	id: number;
	kind: FaultKind;
	method?: string;
	path?: string;
	api?: ApiName;
	/** Matches left before the fault is used up. */
	remaining: number;
	retryAfterSeconds: number;
	delayMs: number;
	processFirst: boolean;
	match?: string;
	/** Matching requests still to let through. */
	skip: number;
}

/** Faults match in the order they were injected; each match uses up one of its `times`. */
export class FaultStore {
	private faults: Fault[] = [];
	private nextId = 1;

	inject(spec: FaultSpecBody): Fault {
		const fault: Fault = {
			id: this.nextId++,
			kind: spec.kind,
			method: spec.method?.toUpperCase(),
			path: spec.path,
			api: spec.api,
			remaining: spec.times ?? 1,
			retryAfterSeconds: spec.retryAfterSeconds ?? 1,
			delayMs: spec.delayMs ?? 1000,
			processFirst: spec.processFirst ?? false,
			match: spec.match,
			skip: spec.skip ?? 0,
		};
		this.faults.push(fault);
		return fault;
	}

	/** `content`: the request's query string and body, as text, for faults with `match`. */
	take(api: ApiName, method: string, path: string, content = ''): Fault | undefined {
		const index = this.faults.findIndex(
			(fault) =>
				(fault.api === undefined || fault.api === api) &&
				(fault.method === undefined || fault.method === method.toUpperCase()) &&
				(fault.path === undefined || path.includes(fault.path)) &&
				(fault.match === undefined || content.includes(fault.match)),
		);
		if (index < 0) return undefined;
		const fault = this.faults[index];
		if (fault.skip > 0) {
			fault.skip--;
			return undefined;
		}
		fault.remaining--;
		if (fault.remaining <= 0) this.faults.splice(index, 1);
		return { ...fault };
	}

	list(): Fault[] {
		return this.faults.map((fault) => ({ ...fault }));
	}

	clear(): void {
		this.faults = [];
	}
}
