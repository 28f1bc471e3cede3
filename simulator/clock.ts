const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDThh:mm:ss.sss+00:00`: the status records' "ISO 8601 with UTC offset". */
export function isoWithOffset(date: Date): string {
	return date.toISOString().replace('Z', '+00:00');
}

/** `YYYY-MM-DDThh:mm:ss`, the schedule's `last_successful_run` format. */
export function isoWithoutZone(date: Date): string {
	return date.toISOString().slice(0, 19);
}

export function isoDate(date: Date): string {
	return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export class TimerGroup {
	private readonly timers = new Set<NodeJS.Timeout>();

	later(ms: number, fn: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		this.timers.add(timer);
	}

	sleep(ms: number): Promise<void> {
		return new Promise((resolve) => this.later(ms, resolve));
	}

	get pending(): number {
		return this.timers.size;
	}

	clear(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}
}
