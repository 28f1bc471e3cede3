import type { N8nClient } from './client';

/** A row as n8n's public API returns it: the table's columns plus `id`, `createdAt`, `updatedAt`. */
export type DataTableRow = Record<string, unknown> & { id: number };

interface Page<T> {
	data: T[];
	nextCursor: string | null;
}

/** The data table of that exact name (n8n's own filter matches any name containing it). */
export async function findDataTable(
	client: N8nClient,
	name: string,
): Promise<{ id: string; name: string } | undefined> {
	const query = new URLSearchParams({ filter: JSON.stringify({ name }), limit: '250' });
	const page = await client.api<Page<{ id: string; name: string }>>('GET', `/data-tables?${query}`);
	return page.data.find((table) => table.name === name);
}

/** Deletes the data table of that name, if there is one, so a template's first run creates it. */
export async function dropDataTable(client: N8nClient, name: string): Promise<void> {
	const table = await findDataTable(client, name);
	if (table) await client.api('DELETE', `/data-tables/${table.id}`);
}

/** Every row of the data table of that name, oldest first. */
export async function dataTableRows(client: N8nClient, name: string): Promise<DataTableRow[]> {
	const table = await findDataTable(client, name);
	if (!table) throw new Error(`no data table named ${name}`);
	const rows: DataTableRow[] = [];
	let cursor: string | null = null;
	do {
		const query = new URLSearchParams({ limit: '250', sortBy: 'id:asc' });
		if (cursor) query.set('cursor', cursor);
		const page: Page<DataTableRow> = await client.api(
			'GET',
			`/data-tables/${table.id}/rows?${query}`,
		);
		rows.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	return rows;
}
