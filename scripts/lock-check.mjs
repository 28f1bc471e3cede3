// Fails while a dependency range in package-lock.json is met by no version the lock holds: under
// that condition `npm install` goes back to the registry, takes whatever is newest that day, and
// that version's own ranges may replace locked ones (a lock that is not a lock). The judge is npm's
// own tree loader (@npmcli/arborist, from the npm that runs the install), reading the lock and
// package.json's overrides as npm does, so "invalid" here is what npm itself would mend.
// Usage: node scripts/lock-check.mjs [project folder]   (exit 1 and one line per unmet range)
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** npm's own folder: the one running this (`npm run`, `npm test`), else the `npm` on PATH. */
function npmFolder() {
	const cli = process.env.npm_execpath?.endsWith('npm-cli.js')
		? process.env.npm_execpath
		: realpathSync(execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
	return dirname(dirname(realpathSync(cli)));
}

export async function unmetRanges(projectFolder) {
	const require = createRequire(join(npmFolder(), 'package.json'));
	const Arborist = require('@npmcli/arborist');
	const tree = await new Arborist({ path: projectFolder }).loadVirtual();
	const unmet = [];
	for (const node of tree.inventory.values()) {
		for (const edge of node.edgesOut.values()) {
			if (edge.valid) continue;
			// An optional dependency or optional peer that nothing installs is no reason to fetch.
			if (edge.missing && (edge.optional || edge.peerOptional)) continue;
			unmet.push({
				from: node.location || '(the project)',
				type: edge.type,
				name: edge.name,
				range: edge.spec,
				locked: edge.to?.version ?? null,
			});
		}
	}
	return unmet;
}

export const describeUnmet = ({ from, type, name, range, locked }) =>
	`${from} wants ${name} ${range} (${type}), the lock holds ${locked ?? 'none'}`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const folder = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
	const unmet = await unmetRanges(folder);
	for (const range of unmet) console.log(describeUnmet(range));
	if (unmet.length > 0) {
		console.log(
			`${unmet.length} range(s) met by no locked version: npm install would resolve them from the registry. ` +
				'Pin or override them in package.json (see CONTRIBUTING, "Dependencies").',
		);
		process.exit(1);
	}
	console.log('package-lock.json: every range is met by a locked version');
}
