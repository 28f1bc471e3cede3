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
		};
		this.faults.push(fault);
		return fault;
	}

	take(api: ApiName, method: string, path: string): Fault | undefined {
		const index = this.faults.findIndex(
			(fault) =>
				(fault.api === undefined || fault.api === api) &&
				(fault.method === undefined || fault.method === method.toUpperCase()) &&
				(fault.path === undefined || path.includes(fault.path)),
		);
		if (index < 0) return undefined;
		const fault = this.faults[index];
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
