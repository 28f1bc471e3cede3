import type { INodePropertyOptions } from 'n8n-workflow';

import type { WorkflowDefinition, WorkflowNode } from './harness/client';
import { loadExamples, prepareExample } from './harness/examples';
import { builtNodeDescriptions, packageManifest } from './harness/fixtures';
import { useE2e } from './harness/suite';

/**
 * n8n 2.41 ships 3.0's Migration Report (Settings → Migration Report; the `breaking-changes`
 * module, REST `/rest/breaking-changes/report`). Saved here: every template of examples/ and one
 * workflow with a node for every operation of every node of the package, and both triggers. The
 * report for 3.0 must flag none of them: what 3.0 changes for the package's users is then only
 * what the instance rules say, which the README's n8n 3.0 section covers.
 */
interface RuleResult {
	ruleId: string;
	ruleTitle: string;
	nbAffectedWorkflows?: number;
	affectedWorkflows?: Array<{ id: string; name: string; issues?: unknown[] }>;
}

interface Report {
	report: {
		targetVersion: string;
		workflowResults: RuleResult[];
		instanceResults: RuleResult[];
	};
}

const { client, state, credentials } = useE2e({
	credentials: 'migration report',
	resetEachTest: false,
});
const ours = new Map<string, string>();

/** One node per operation of every action node, and every trigger, none connected. */
function everyOperation(credentials: Record<string, { id: string; name: string }>) {
	const { name: packageName } = packageManifest();
	const nodes: WorkflowNode[] = [];
	for (const description of builtNodeDescriptions()) {
		const type = `${packageName}.${description.name}`;
		const version = Array.isArray(description.version)
			? Math.max(...description.version)
			: description.version;
		const nodeCredentials = Object.fromEntries(
			(description.credentials ?? []).map(({ name }) => [name, credentials[name]]),
		);
		const resource = description.properties.find(({ name }) => name === 'resource');
		const variants: Array<Record<string, unknown>> = resource
			? ((resource.options ?? []) as INodePropertyOptions[]).flatMap(({ value }) =>
					description.properties
						.filter(
							({ name, displayOptions }) =>
								name === 'operation' && displayOptions?.show?.resource?.includes(value),
						)
						.flatMap(({ options }) => (options ?? []) as INodePropertyOptions[])
						.map((operation) => ({ resource: value, operation: operation.value })),
				)
			: [{}];
		variants.forEach((parameters, index) => {
			nodes.push({
				id: `${description.name}-${index}`,
				name: `${description.displayName} ${index + 1}`,
				type,
				typeVersion: version,
				position: [nodes.length * 220, 0],
				parameters,
				credentials: nodeCredentials,
				...(description.webhooks?.length ? { webhookId: `migration-${description.name}` } : {}),
			} as WorkflowNode);
		});
	}
	return {
		name: 'Migration report: every operation',
		nodes,
		connections: {},
	} as WorkflowDefinition;
}

beforeAll(async () => {
	const workflows = [
		everyOperation(credentials),
		...loadExamples().map(({ workflow }) =>
			prepareExample(workflow, { credentials, n8nUrl: state.webhookUrl }),
		),
	];
	for (const workflow of workflows) {
		const { id } = await client.createWorkflow(workflow);
		ours.set(id, workflow.name);
	}
});

afterAll(async () => {
	for (const id of ours.keys()) await client.deleteWorkflow(id).catch(() => undefined);
});

describe("n8n's Migration Report for 3.0", () => {
	it('flags none of the workflows that use the package: every operation and every template', async () => {
		const { report } = await client.rest<Report>(
			'POST',
			'/breaking-changes/report/refresh?version=v3',
		);
		expect(report.targetVersion).toBe('v3');
		expect(report.workflowResults.length + report.instanceResults.length).toBeGreaterThan(0);
		const flagged: string[] = [];
		for (const rule of report.workflowResults.filter((r) => (r.nbAffectedWorkflows ?? 0) > 0)) {
			const detail = await client.rest<RuleResult>(
				'GET',
				`/breaking-changes/report/${rule.ruleId}`,
			);
			for (const workflow of detail.affectedWorkflows ?? []) {
				if (ours.has(String(workflow.id))) flagged.push(`${rule.ruleId}: ${workflow.name}`);
			}
		}
		expect(flagged).toEqual([]);
	});

	it("has nothing to say of the instance once N8N_UNVERIFIED_PACKAGES_ENABLED is set, as the README's n8n 3.0 section asks", async () => {
		// The harness sets it to true, as the README tells users of an unverified package to do.
		const { report } = await client.rest<Report>('GET', '/breaking-changes/report?version=v3');
		const rules = report.instanceResults.map(({ ruleId }) => ruleId);
		expect(rules).not.toContain('unverified-packages-v3');
	});
});
