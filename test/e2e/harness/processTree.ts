import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it: its start time tells it from a later one given the same pid. */
export interface ProcessId {
	pid: number;
	/** Clock ticks after boot (/proc/<pid>/stat field 22). */
	startedAt: string;
	command: string;
}

function readProcess(pid: number): (ProcessId & { parent: number }) | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command, which is in parentheses and may hold spaces.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
		return { pid, parent: Number(fields[1]), startedAt: fields[19], command };
	} catch {
		return undefined;
	}
}

/** Every process under `root`, at any depth (a stack's processes run in groups of their own). */
export function descendantsOf(root: number): ProcessId[] {
	const all = readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.map((entry) => readProcess(Number(entry)))
		.filter((p) => p !== undefined);
	const found: ProcessId[] = [];
	let parents = new Set([root]);
	while (parents.size > 0) {
		const children = all.filter((p) => parents.has(p.parent));
		found.push(...children.map(({ pid, startedAt, command }) => ({ pid, startedAt, command })));
		parents = new Set(children.map((p) => p.pid));
	}
	return found;
}

export const stillRunning = (processes: ProcessId[]) =>
	processes.filter((p) => readProcess(p.pid)?.startedAt === p.startedAt);

export function killAll(processes: ProcessId[]): void {
	for (const { pid } of stillRunning(processes)) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}
