import { readFileSync, writeFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
	if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
	return Number(match[1]) / 1024;
}

export const rssMb = (pid: number) => statusField(pid, 'VmRSS');

/**
 * Samples the resident set of `pid` while it runs. The kernel's own high-water mark (VmHWM) is
 * reset at start when it can be (writing 5 to clear_refs), which catches peaks between samples.
 */
export class RssSampler {
	private timer: NodeJS.Timeout | undefined;
	private sampledPeak = 0;
	readonly startMb: number;
	private readonly hwmReset: boolean;

	constructor(
		private readonly pid: number,
		intervalMs = 20,
	) {
		this.startMb = rssMb(pid);
		this.hwmReset = resetHighWaterMark(pid);
		this.sampledPeak = this.startMb;
		this.timer = setInterval(() => {
			try {
				this.sampledPeak = Math.max(this.sampledPeak, rssMb(pid));
			} catch {
				// the process is gone; stop() reports what was seen
			}
		}, intervalMs);
	}

	stop(): { startMb: number; peakMb: number; source: 'VmHWM' | 'samples' } {
		clearInterval(this.timer);
		if (this.hwmReset) {
			return {
				startMb: this.startMb,
				peakMb: Math.max(statusField(this.pid, 'VmHWM'), this.sampledPeak),
				source: 'VmHWM',
			};
		}
		return { startMb: this.startMb, peakMb: this.sampledPeak, source: 'samples' };
	}
}

function resetHighWaterMark(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return statusField(pid, 'VmHWM') <= rssMb(pid) + 1;
	} catch {
		return false;
	}
}
