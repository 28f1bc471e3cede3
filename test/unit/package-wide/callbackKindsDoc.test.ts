import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ENDPOINTS } from '../../../nodes/shared/endpoints';
import { repoRoot } from '../nodeClasses';

/**
 * The Scraping Callback Trigger's page lists the kinds it recognises from the endpoint table, so a
 * new kind reaches the docs with its row: written with UPDATE_DOCS=1, checked on every run.
 */
const PAGE = join(repoRoot, 'docs', 'nodes', 'scraping-callback-trigger.md');
const START = '<!-- callback-kinds:start -->';
const END = '<!-- callback-kinds:end -->';

function kindsTable(): string {
	const sentBy = (kind: string) =>
		ENDPOINTS.endpoints
			.filter(({ callbacks = [] }) => callbacks.includes(kind))
			.map(({ api, method, path }) => `${api} \`${method} ${path}\``)
			.join(', ') || '–';
	return [
		START,
		'<!-- Written by test/unit/package-wide/callbackKindsDoc.test.ts (UPDATE_DOCS=1) from ' +
			'nodes/shared/endpoints.ts; checked by it on every run. -->',
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
}

describe("the Scraping Callback Trigger's page", () => {
	it('lists the callback kinds of the endpoint table', () => {
		const page = readFileSync(PAGE, 'utf8');
		const from = page.indexOf(START);
		const to = page.indexOf(END);
		expect(from).toBeGreaterThan(-1);
		expect(to).toBeGreaterThan(from);
		if (process.env.UPDATE_DOCS === '1') {
			writeFileSync(PAGE, page.slice(0, from) + kindsTable() + page.slice(to + END.length));
			return;
		}
		expect(page.slice(from, to + END.length)).toBe(kindsTable());
		for (const { name } of ENDPOINTS.callbackKinds) expect(page).toContain(`| ${name} |`);
	});
});
