import { parse } from 'flatted';

import { N8nClient, type Execution, type WorkflowDefinition } from './client';

type ExecutionSummary = Omit<Execution, 'data'>;

/**
 * The public-API calls of `N8nClient` made through the editor's own REST routes instead. n8n 1.x
 * switches its public API off in its end-to-end mode (`E2E_TESTS`, config/index.js), and the
 * installer test needs that mode for a local registry; n8n 2.x serves these routes too.
 */
export class EditorClient extends N8nClient {
	override async createApiKey(): Promise<string> {
		return '';
	}

	override async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<{ id: string; name: string }> {
		const created = await this.rest<{ id: string; name: string }>('POST', '/credentials', {
			name,
			type,
			data,
		});
		return { id: created.id, name: created.name };
	}

	override async createWorkflow(workflow: WorkflowDefinition): Promise<{ id: string }> {
		// n8n 1.x's editor sends `active`, and its database refuses a workflow without it.
		return await this.rest('POST', '/workflows', {
			settings: { executionOrder: 'v1' },
			active: false,
			...workflow,
		});
	}

	override async getWorkflow(
		id: string,
	): Promise<WorkflowDefinition & { id: string; active: boolean }> {
		return await this.rest('GET', `/workflows/${id}`);
	}

	/** The editor publishes the version it shows; both majors ask for it. */
	override async activate(id: string): Promise<void> {
		const { versionId } = await this.rest<{ versionId: string }>('GET', `/workflows/${id}`);
		await this.rest('POST', `/workflows/${id}/activate`, { versionId });
	}

	override async deactivate(id: string): Promise<void> {
		await this.rest('POST', `/workflows/${id}/deactivate`);
	}

	/** The editor deletes only an archived workflow. */
	override async deleteWorkflow(id: string): Promise<void> {
		await this.rest('POST', `/workflows/${id}/archive`);
		await this.rest('DELETE', `/workflows/${id}`);
	}

	override async listExecutions(query: {
		workflowId?: string;
		status?: string;
		includeData?: boolean;
		limit?: number;
	}): Promise<Execution[]> {
		const filter = JSON.stringify({
			...(query.workflowId ? { workflowId: query.workflowId } : {}),
			...(query.status ? { status: [query.status] } : {}),
		});
		const page = await this.rest<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${encodeURIComponent(filter)}&limit=${query.limit ?? 100}`,
		);
		if (!query.includeData) return page.results;
		return await Promise.all(page.results.map(async ({ id }) => await this.getExecution(id)));
	}

	/** The editor receives the run data as one `flatted` string, as n8n stores it. */
	override async getExecution(id: string): Promise<Execution> {
		const stored = await this.rest<ExecutionSummary & { data: string }>('GET', `/executions/${id}`);
		return { ...stored, data: parse(stored.data) as Execution['data'] };
	}
}
