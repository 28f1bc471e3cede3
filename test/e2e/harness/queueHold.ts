import { readFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot } from './paths';
import { exchange } from './services';

const UPDATE_SCRIPT = path.join(repoRoot, 'deploy', 'update.sh');
const HOLD_SCRIPT = path.join(repoRoot, 'deploy', 'queue-hold.lua');

/** The keys deploy/update.sh's `queue` passes to queue-hold.lua, for a hold and for a release. */
export function queueHoldKeys(): Record<'hold' | 'release', string[]> {
	const script = readFileSync(UPDATE_SCRIPT, 'utf8');
	const [hold, release] = [...script.matchAll(/keys='([^']+)'/g)].map(([, keys]) =>
		keys.split(' '),
	);
	if (hold?.length !== 5 || release?.length !== 5) {
		throw new Error('deploy/update.sh: queue() names five keys for a hold, then for a release');
	}
	return { hold, release };
}

/**
 * Holds or releases n8n's execution queue on a Redis as deploy/update.sh does (queue-hold.lua, its
 * keys); gives the length of the list the queued jobs are in then.
 */
export async function holdQueue(redisPort: number, action: 'hold' | 'release'): Promise<number> {
	const args = ['EVAL', readFileSync(HOLD_SCRIPT, 'utf8'), '5', ...queueHoldKeys()[action], action];
	const request = `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
	const answer = await exchange(redisPort, request, 5000);
	if (!answer.startsWith(':')) throw new Error(`queue-hold.lua (${action}): ${answer.trim()}`);
	return Number(answer.slice(1));
}
