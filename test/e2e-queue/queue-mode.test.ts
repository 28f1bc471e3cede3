import { readFileSync } from 'node:fs';

import { postgresHandshake } from '../e2e/harness/services';
import { useQueueE2e } from './helpers';

const { state, control } = useQueueE2e();

describe("queue mode: the stack's twin", () => {
	it('runs one main, two webhook processes and two workers, each answering its health check', async () => {
		const processes = await control.processes();
		expect(processes.map((p) => [p.name, p.alive])).toEqual([
			['main', true],
			['webhook', true],
			['webhook1', true],
			['worker0', true],
			['worker1', true],
		]);
		expect(new Set(processes.map((p) => p.url)).size).toBe(5);
		// The service and the editor reach n8n through the front (N8N_WEBHOOK_URL).
		expect(state.webhookUrl).toBe(state.queue.frontUrl);
		for (const { url } of processes) {
			const res = await fetch(`${url}/healthz/readiness`);
			expect({ url, status: res.status }).toEqual({ url, status: 200 });
		}
	});

	it("runs on PostgreSQL 17 or newer, and no n8n process logs n8n's warning about that version", async () => {
		const { port, user, database } = state.queue.postgres;
		const version = await postgresHandshake(port, user, database);
		expect(Number.parseInt(version, 10)).toBeGreaterThanOrEqual(17);
		// n8n checks the version on connecting, before it takes the migration lock: a log holding
		// that line has passed the check.
		const logs = state.queue.processes
			.filter((p) => p.logFile)
			.map(({ name, logFile }) => {
				const text = readFileSync(logFile, 'utf8');
				return {
					name,
					connected: text.includes('Acquiring database migration lock'),
					warnings: text.match(
						/^.*(?:Postgres \d+ is (?:not supported|outside the supported range)|Could not check database version).*$/gm,
					),
				};
			});
		expect(logs.map((log) => log.name)).toEqual(
			expect.arrayContaining(['main', 'webhook', 'webhook1', 'worker0', 'worker1']),
		);
		expect(logs).toEqual(logs.map(({ name }) => ({ name, connected: true, warnings: null })));
	});
});
