/**
 * n8n's task runners in external mode (deploy/n8n.env, compose.yaml's n8n-runner-<n>): a Code node
 * runs on a worker through the runner beside it, not in a child process of the worker, and no
 * process of the cluster logs n8n's notice of deprecated settings (it named the internal mode).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

import { activateChain, webhookNode } from '../e2e/harness/workflows';
import type { WorkflowNode } from '../e2e/harness/client';
import { useQueueE2e, workersThatRan } from './helpers';

const { client, state, activated } = useQueueE2e({ credentials: 'task runners' });

/** Command lines of every process under `root`, at any depth. */
function descendantCommands(root: number): string[] {
	const all = readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.flatMap((entry) => {
			try {
				const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
				const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
				const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
				return [{ pid: Number(entry), parent, command }];
			} catch {
				return [];
			}
		});
	const found: string[] = [];
	let parents = new Set([root]);
	while (parents.size > 0) {
		const children = all.filter((p) => parents.has(p.parent));
		found.push(...children.map((p) => p.command));
		parents = new Set(children.map((p) => p.pid));
	}
	return found;
}

const codeNode: WorkflowNode = {
	id: randomUUID(),
	name: 'Code',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	position: [200, 0],
	parameters: {
		jsCode: 'return $input.all().map((item) => ({ json: { doubled: item.json.body.value * 2 } }));',
	},
};

describe("n8n's task runners beside the workers (external mode)", () => {
	it('runs a Code node on a worker through its runner, no runner inside the worker', async () => {
		const path = `runner-${randomUUID()}`;
		const id = await activateChain(client, 'task runners: a Code node', [
			webhookNode(path),
			codeNode,
		]);
		activated.add(id);
		const res = await client.callWebhook(path, { value: 21 });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual([{ doubled: 42 }]);

		const [execution] = await client.waitForExecutions(id, 1, 30_000);
		expect(execution.status).toBe('success');
		expect(workersThatRan(execution.id)).toHaveLength(1);
		// Internal mode starts the runner as the worker's child; external mode has none there.
		const workers = state.queue.processes.filter((p) => p.name.startsWith('worker'));
		expect(workers.length).toBeGreaterThan(0);
		for (const worker of workers) {
			const runnersInside = descendantCommands(worker.pid).filter((c) => c.includes('task-runner'));
			expect({ worker: worker.name, runnersInside }).toEqual({
				worker: worker.name,
				runnersInside: [],
			});
		}
	});

	it("leaves no notice of n8n's about deprecated settings in any process's log", () => {
		// n8n's DeprecationService heads its list so; the list named N8N_RUNNERS_MODE before.
		const heading = 'There are deprecations related to your n8n setup';
		const notices = state.queue.processes
			.filter((p) => p.logFile)
			.map(({ name, logFile }) => {
				const log = readFileSync(logFile, 'utf8');
				const at = log.indexOf(heading);
				return { name, deprecations: at < 0 ? '' : log.slice(at, at + 600) };
			});
		expect(notices.length).toBeGreaterThan(2);
		expect(notices.filter((n) => n.deprecations)).toEqual([]);
	});
});
