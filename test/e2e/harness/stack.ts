import path from 'node:path';

import { repoRoot } from './paths';
import { readEnvFile } from './envFile';

/**
 * The production stack deploy/ ships (docs/production.md): deploy/compose.yaml runs it in Docker,
 * `npm start -- --scale` and the queue-mode e2e suite run the same processes here, from the same
 * env file and front. test/unit/package-wide/composeStack.test.ts holds the compose file to these.
 */
export const STACK_ENV_FILE = path.join(repoRoot, 'deploy', 'n8n.env');
export const STACK_COMPOSE_FILE = path.join(repoRoot, 'deploy', 'compose.yaml');
/** Webhook processes behind the front, and workers, as compose.yaml runs them. */
export const STACK_WEBHOOK_PROCESSES = 2;
export const STACK_WORKERS = 2;

/**
 * What a run here changes in deploy/n8n.env, and nothing else: where PostgreSQL and Redis
 * listen (compose.yaml reaches them by service name on their default ports), and the address a
 * worker's task broker listens on (every interface in a container, for its runner's container;
 * 127.0.0.1 here, where the runner is a process beside it).
 */
export const STACK_ADDRESS_KEYS = [
	'DB_POSTGRESDB_HOST',
	'DB_POSTGRESDB_PORT',
	'DB_POSTGRESDB_DATABASE',
	'DB_POSTGRESDB_USER',
	'QUEUE_BULL_REDIS_HOST',
	'QUEUE_BULL_REDIS_PORT',
	'N8N_RUNNERS_BROKER_LISTEN_ADDRESS',
] as const;

export type StackAddresses = Record<(typeof STACK_ADDRESS_KEYS)[number], string>;

/** deploy/n8n.env with this run's addresses: every n8n process of the stack gets exactly this. */
export function stackEnv(addresses: StackAddresses): Record<string, string> {
	const shipped = readEnvFile(STACK_ENV_FILE);
	const missing = STACK_ADDRESS_KEYS.filter((key) => !(key in shipped));
	if (missing.length > 0) {
		throw new Error(`${STACK_ENV_FILE} no longer sets ${missing.join(', ')}: update stack.ts`);
	}
	return { ...shipped, ...addresses };
}
