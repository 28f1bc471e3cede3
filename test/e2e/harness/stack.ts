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

/**
 * Every setting the twin's n8n processes get that compose.yaml's do not, or with another value,
 * beside the addresses above, the secrets and the public URL (compose.yaml's from deploy/.env, the
 * twin's its own). test/unit/package-wide/twinEnvironment.test.ts holds each role to this.
 */
export const TWIN_ONLY_SETTINGS = {
	/** A process on this machine instead of a container: its folder, addresses and ports. */
	plainProcess: [
		'N8N_USER_FOLDER',
		'N8N_LISTEN_ADDRESS',
		'N8N_HOST',
		'N8N_PORT',
		'N8N_PROTOCOL',
		'N8N_RUNNERS_BROKER_PORT',
		'QUEUE_HEALTH_CHECK_PORT',
		'N8N_WORKER_SERVER_ADDRESS',
	],
	/** As n8n's image sets it. */
	image: ['NODE_ENV'],
	/** What would reach the internet, which the lab has not. */
	offline: [
		'N8N_DIAGNOSTICS_ENABLED',
		'N8N_DIAGNOSTICS_CONFIG_FRONTEND',
		'N8N_DIAGNOSTICS_CONFIG_BACKEND',
		'N8N_VERSION_NOTIFICATIONS_ENABLED',
		'N8N_TEMPLATES_ENABLED',
		'N8N_LICENSE_AUTO_RENEW_ENABLED',
		'N8N_PERSONALIZATION_ENABLED',
		'N8N_HIRING_BANNER_ENABLED',
		'N8N_AI_ENABLED',
		'N8N_VERIFIED_PACKAGES_ENABLED',
		'N8N_DISABLED_MODULES',
	],
	/** The simulator answers for the service's public host names (a preloaded script). */
	simulator: ['NODE_OPTIONS'],
} as const;
