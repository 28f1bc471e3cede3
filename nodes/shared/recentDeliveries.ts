// n8n 2.41 saves the static data a webhook call writes only while the workflow's static data is
// still empty (starting the run resets its "changed" flag before it is saved), so memory is what
// recognises repeats within a process. Static data still carries the window across restarts as far
// as n8n saves it.
const MAX_SCOPES = 1000;
const windows = new Map<string, string[]>();

/**
 * Records `id` in the window of `scope` (a workflow's trigger node) and says whether it is new.
 * Check and record happen without yielding, so concurrent deliveries in one process cannot both
 * pass as new.
 */
export function recordDelivery(
	scope: string,
	id: string,
	windowSize: number,
	persisted: string[] = [],
): { isNew: boolean; recentIds: string[] } {
	const recentIds = windows.get(scope) ?? [...persisted];
	if (recentIds.includes(id)) return { isNew: false, recentIds };
	recentIds.push(id);
	recentIds.splice(0, Math.max(0, recentIds.length - windowSize));
	windows.delete(scope);
	windows.set(scope, recentIds);
	if (windows.size > MAX_SCOPES) windows.delete(windows.keys().next().value as string);
	return { isNew: true, recentIds };
}
