import { n8nMajor } from './compat';
import { startN8n, type N8nInstance, type N8nOptions } from './n8n-process';
import { startPostgres, type PostgresService } from './services';

export type Database = 'sqlite' | 'postgres';

/**
 * n8n 1.x on SQLite runs concurrent transactions over one connection (n8n-io/n8n#20916): a workflow
 * saved while an execution is being saved may fail with "SQLITE_ERROR: no such savepoint", n8n's
 * fault and at random. Production users of 1.x run PostgreSQL, and so does every test of 1.x here;
 * 2.x pools its SQLite connections and keeps SQLite, its default. E2E_N8N_DATABASE overrides.
 */
export function databaseFor(major = n8nMajor()): Database {
	const chosen = process.env.E2E_N8N_DATABASE;
	if (chosen === 'sqlite' || chosen === 'postgres') return chosen;
	if (chosen) throw new Error(`E2E_N8N_DATABASE is "${chosen}": sqlite or postgres`);
	return major < 2 ? 'postgres' : 'sqlite';
}

export function postgresEnv(postgres: PostgresService): Record<string, string> {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_DATABASE: postgres.database,
	};
}

/** A regular-mode n8n on its version's database (`databaseFor`); stopping it stops both. */
export async function startN8nOnDatabase(
	options: N8nOptions,
	database = databaseFor(),
): Promise<N8nInstance> {
	if (database === 'sqlite') return await startN8n(options);
	const postgres = await startPostgres(`${options.name}-postgres`);
	let instance: N8nInstance;
	try {
		instance = await startN8n({ ...options, env: { ...postgresEnv(postgres), ...options.env } });
	} catch (error) {
		await postgres.stop();
		throw error;
	}
	return {
		...instance,
		stop: async () => {
			await instance.stop();
			await postgres.stop();
		},
	};
}
