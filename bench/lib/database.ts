import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { psqlProgram, type PostgresService } from '../../test/e2e/harness/services';

export interface ExecutionRow {
	id: string;
	status: string;
	/** Epoch milliseconds; null while the execution has not ended. */
	stoppedAt: number | null;
}

/**
 * n8n's database read directly, beside n8n: polling the API for a thousand executions would load
 * the very process being measured.
 */
export interface ExecutionStore {
	readonly kind: 'sqlite' | 'postgres';
	executions(workflowId: string): ExecutionRow[];
	/**
	 * Bytes n8n keeps for each of these executions: the run data and the workflow's copy
	 * (execution_data) and the custom data (execution_metadata).
	 */
	savedBytes(executionIds: string[]): number[];
	close(): void;
}

const idList = (ids: string[]) => ids.map((id) => String(Number(id))).join(',');

export function sqliteStore(userFolder: string): ExecutionStore {
	const db = new DatabaseSync(path.join(userFolder, '.n8n', 'database.sqlite'), { readOnly: true });
	return {
		kind: 'sqlite',
		executions(workflowId) {
			const rows = db
				.prepare(
					`SELECT id, status, (julianday(stoppedAt) - 2440587.5) * 86400000.0 AS stopped
					 FROM execution_entity WHERE workflowId = ?`,
				)
				.all(workflowId) as Array<{ id: number; status: string; stopped: number | null }>;
			return rows.map((row) => ({
				id: String(row.id),
				status: row.status,
				stoppedAt: row.stopped === null ? null : Math.round(row.stopped),
			}));
		},
		savedBytes(executionIds) {
			if (executionIds.length === 0) return [];
			const rows = db
				.prepare(
					`SELECT d.executionId AS id, length(CAST(d.data AS BLOB)) + length(CAST(d.workflowData AS BLOB))
					   + coalesce((SELECT sum(length(CAST(m.key AS BLOB)) + length(CAST(m.value AS BLOB)))
					               FROM execution_metadata m WHERE m.executionId = d.executionId), 0) AS bytes
					 FROM execution_data d WHERE d.executionId IN (${idList(executionIds)})`,
				)
				.all() as Array<{ bytes: number }>;
			return rows.map((row) => row.bytes);
		},
		close: () => db.close(),
	};
}

export function postgresStore(postgres: PostgresService): ExecutionStore {
	const psql = (sql: string): string[][] =>
		execFileSync(
			psqlProgram(),
			[
				'-h',
				'127.0.0.1',
				'-p',
				String(postgres.port),
				'-U',
				postgres.user,
				'-d',
				postgres.database,
				'-AtF',
				'\t',
				'-c',
				sql,
			],
			{ encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 30_000 },
		)
			.split('\n')
			.filter(Boolean)
			.map((line) => line.split('\t'));
	return {
		kind: 'postgres',
		executions(workflowId) {
			if (!/^[A-Za-z0-9]+$/.test(workflowId)) throw new Error(`odd workflow id ${workflowId}`);
			return psql(
				`SELECT id, status, floor(extract(epoch FROM "stoppedAt") * 1000)
				 FROM execution_entity WHERE "workflowId" = '${workflowId}'`,
			).map(([id, status, stopped]) => ({
				id,
				status,
				stoppedAt: stopped ? Number(stopped) : null,
			}));
		},
		savedBytes(executionIds) {
			if (executionIds.length === 0) return [];
			return psql(
				`SELECT octet_length(d.data) + octet_length(d."workflowData"::text)
				   + coalesce((SELECT sum(octet_length(m.key) + octet_length(m.value))
				               FROM execution_metadata m WHERE m."executionId" = d."executionId"), 0)
				 FROM execution_data d WHERE d."executionId" IN (${idList(executionIds)})`,
			).map(([bytes]) => Number(bytes));
		},
		close: () => undefined,
	};
}
