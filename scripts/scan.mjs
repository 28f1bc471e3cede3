// Runs n8n's community-package scanner (@n8n/scan-community-package) the way it checks a package
// it verifies, without its registry download: once on this checkout's node and credential sources,
// once on the unpacked `npm pack` output. Run after `npm run build`; exits 1 on any error.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(tmpdir(), 'scan-'));
// The scanner makes a temporary folder when it loads: keep it inside ours so it goes with it.
process.env.TMPDIR = work;
const { analyzePackage, SOURCE_FILE_PATTERNS } =
	await import('@n8n/scan-community-package/scanner/scanner.mjs');

let failed = false;
try {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	const unpacked = path.join(work, 'package');
	mkdirSync(unpacked);
	execFileSync('tar', [
		'-xzf',
		path.join(work, packed[0].filename),
		'-C',
		unpacked,
		'--strip-components=1',
	]);

	const legs = [
		['source', root, SOURCE_FILE_PATTERNS],
		['packed tarball', unpacked, ['**/*.js', 'package.json']],
	];
	for (const [label, dir, patterns] of legs) {
		const result = await analyzePackage(dir, patterns);
		if (result.passed && !result.message) {
			console.log(`scanner, ${label} (${patterns.join(', ')}): 0 errors`);
		} else {
			failed = true;
			console.log(`scanner, ${label}: ${result.message ?? 'failed'}`);
			if (result.details) console.log(result.details);
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
