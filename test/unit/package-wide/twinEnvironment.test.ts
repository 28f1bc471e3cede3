import { readFileSync } from 'node:fs';

import { parse } from 'yaml';

import { readEnvFile } from '../../e2e/harness/envFile';
import { n8nSettings, type N8nCommand } from '../../e2e/harness/n8n-process';
import { clusterSettings } from '../../e2e/harness/queue';
import {
	STACK_ADDRESS_KEYS,
	STACK_COMPOSE_FILE,
	STACK_ENV_FILE,
	TWIN_ONLY_SETTINGS,
} from '../../e2e/harness/stack';
import { runnerSettings } from '../../e2e/harness/taskRunner';

interface ComposeService {
	command?: string;
	environment?: Record<string, string>;
}

const { services } = parse(readFileSync(STACK_COMPOSE_FILE, 'utf8'), { merge: true }) as {
	services: Record<string, ComposeService>;
};
const shipped = readEnvFile(STACK_ENV_FILE);

/** What compose.yaml takes from deploy/.env, and the twin makes its own. */
const OWN_VALUES = [
	'N8N_ENCRYPTION_KEY',
	'N8N_RUNNERS_AUTH_TOKEN',
	'N8N_WEBHOOK_URL',
	'N8N_EDITOR_BASE_URL',
];
/**
 * The twin's PostgreSQL takes local connections without a password; the secure cookie is n8n's
 * default where deploy/.env does not set it (`${N8N_SECURE_COOKIE:-true}`), and the twin leaves it.
 */
const COMPOSE_ONLY = ['DB_POSTGRESDB_PASSWORD', 'N8N_SECURE_COOKIE'];

/** The settings `startQueueCluster({ stack: true })` gives a process of this role. */
function twinSettings(role: 'main' | 'webhook' | 'worker', command: N8nCommand) {
	const addresses = Object.fromEntries(STACK_ADDRESS_KEYS.map((key) => [key, `twin-${key}`]));
	return n8nSettings({
		command,
		port: 5001,
		brokerPort: 5002,
		userFolder: '/twin/user-folder',
		encryptionKey: 'twin-key',
		n8nMain: undefined,
		stack: true,
		env: {
			...clusterSettings({
				stack: true,
				addresses: addresses as Parameters<typeof clusterSettings>[0]['addresses'],
				publicUrl: 'http://127.0.0.1:5000',
				editorUrl: 'http://127.0.0.1:5000',
				runnersAuthToken: 'twin-token',
			}),
		},
	});
}

describe("the twin's processes get what compose.yaml gives each role, and a named list more", () => {
	const roles = [
		['main', 'start', 'n8n'],
		['webhook', 'webhook', 'n8n-webhook-1'],
		['worker', 'worker', 'n8n-worker-1'],
	] as const;
	const named = Object.values(TWIN_ONLY_SETTINGS).flat() as string[];

	it.each(roles)('%s', (role, command, service) => {
		const compose = { ...shipped, ...services[service].environment };
		expect(services[service].command?.split(' ')[0]).toBe(command);
		const twin = twinSettings(role, command);

		const missing = Object.keys(compose).filter((key) => !(key in twin));
		expect(missing.sort()).toEqual([...COMPOSE_ONLY].sort());
		expect(compose.N8N_SECURE_COOKIE).toBe('${N8N_SECURE_COOKIE:-true}');
		const otherValue = Object.keys(compose).filter(
			(key) => key in twin && twin[key] !== compose[key],
		);
		expect(otherValue.sort()).toEqual([...STACK_ADDRESS_KEYS, ...OWN_VALUES].sort());
		const added = Object.keys(twin).filter((key) => !(key in compose));
		expect(added.filter((key) => !named.includes(key))).toEqual([]);
		// No name in the list that the twin no longer sets (N8N_DISABLED_MODULES only where n8n
		// ships the module, which this test does not look for).
		const stale = named.filter(
			(key) =>
				!(key in twin) &&
				key !== 'N8N_DISABLED_MODULES' &&
				!(
					role !== 'worker' &&
					['QUEUE_HEALTH_CHECK_PORT', 'N8N_WORKER_SERVER_ADDRESS'].includes(key)
				),
		);
		expect(stale).toEqual([]);
	});

	it("a runner: its worker's broker, and the grant its launcher got with compose.yaml's token", () => {
		const compose = services['n8n-runner-1'].environment ?? {};
		const twin = runnerSettings('http://127.0.0.1:5002', 'grant');
		expect(Object.keys(compose).sort()).toEqual([
			'N8N_RUNNERS_AUTH_TOKEN',
			'N8N_RUNNERS_TASK_BROKER_URI',
		]);
		expect(Object.keys(twin).sort()).toEqual([
			'N8N_RUNNERS_GRANT_TOKEN',
			'N8N_RUNNERS_TASK_BROKER_URI',
		]);
		expect(new URL(compose.N8N_RUNNERS_TASK_BROKER_URI).port).toBe('5679');
	});
});
