import { join } from 'node:path';

import { ENDPOINTS } from '../nodes/shared/endpoints';

/**
 * The Scraping Callback Trigger's page lists the callback kinds of the endpoint table, so a new
 * kind reaches the docs with its row. test/unit/package-wide/generatedDocs.test.ts checks the page
 * against this and, with UPDATE_DOCS=1, writes it.
 */
export const callbackKindsPage = join(
	__dirname,
	'..',
	'docs',
	'nodes',
	'scraping-callback-trigger.md',
);

const START = '<!-- callback-kinds:start -->';
const END = '<!-- callback-kinds:end -->';

export function withCallbackKinds(page: string): string {
	const sentBy = (kind: string) =>
		ENDPOINTS.endpoints
			.filter(({ callbacks = [] }) => callbacks.includes(kind))
			.map(({ api, method, path }) => `${api} \`${method} ${path}\``)
			.join(', ') || '–';
	const table = [
		START,
		'<!-- Written by scripts/callback-kinds-table.ts from nodes/shared/endpoints.ts; checked by ' +
			'test/unit/package-wide/generatedDocs.test.ts (UPDATE_DOCS=1 writes it). -->',
		'',
		'| Kind | `kind` | `id` from | Records in | Sent for |',
		'|---|---|---|---|---|',
		...ENDPOINTS.callbackKinds.map(
			({ name, value, idField, records }) =>
				`| ${name} | \`${value}\` | \`${idField}\` | \`${records}\` | ${sentBy(value)} |`,
		),
		'| Unrecognised | `unknown` | `request_id` or `job_id`, if any | – | – |',
		'',
		END,
	].join('\n');
	const from = page.indexOf(START);
	const to = page.indexOf(END);
	if (from < 0 || to < from) throw new Error(`${callbackKindsPage} has lost its ${START} markers`);
	return page.slice(0, from) + table + page.slice(to + END.length);
}
