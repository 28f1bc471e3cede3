import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const repository = 'github.com/n8n-nodes-review-scraping/n8n-nodes-review-scraping';

function filesUnder(folder: string, keep: (file: string) => boolean): string[] {
	return readdirSync(folder).flatMap((name) => {
		const path = join(folder, name);
		if (statSync(path).isDirectory()) return filesUnder(path, keep);
		return keep(path) ? [path] : [];
	});
}

const read = (file: string): string => readFileSync(file, 'utf8');

/** The text of a Markdown file without its fenced code blocks and inline code spans. */
function prose(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to hyphens. */
function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/\]\([^)]*\)/g, '')
		.replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
		.replace(/ /g, '-');
}

/** Every anchor of a Markdown file's headings, numbered as GitHub numbers repeats. */
function anchorsOf(file: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	const text = read(file).replace(/^```[\s\S]*?^```/gm, '');
	for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** The relative link targets of a Markdown file: `[text](target)`, without web or mail links. */
function relativeLinks(file: string): string[] {
	return [...prose(read(file)).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
		.map((match) => match[1])
		.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const readme = join(root, 'README.md');
const documents = [
	readme,
	join(root, 'CONTRIBUTING.md'),
	...filesUnder(join(root, 'docs'), (file) => file.endsWith('.md')),
];

describe('README.md', () => {
	it('has at most 300 lines', () => {
		const lines = read(readme).split('\n').length;
		if (lines > 300) {
			throw new Error(
				`README.md has ${lines} lines: move detail to a page under docs/ and link it from the README.`,
			);
		}
	});

	it('names the test command of CONTRIBUTING.md and sends contributors there', () => {
		expect(read(readme)).toContain('(CONTRIBUTING.md)');
		expect(read(join(root, 'CONTRIBUTING.md'))).toContain('`npm test`');
	});

	it("shows test/compat/results.json's runs as its compatibility table", () => {
		const check = spawnSync(
			process.execPath,
			[join(root, 'scripts', 'compat.mjs'), '--table-only', '--check'],
			{ cwd: root, encoding: 'utf8' },
		);
		if (check.status !== 0 || check.stderr !== '') {
			throw new Error(
				`${check.stderr}\nThe README's compatibility table no longer shows test/compat/results.json: ` +
					'regenerate it with `node scripts/compat.mjs --table-only` (never edit the block by hand).',
			);
		}
	});

	// A compatibility row is worth what its commit is: one that never landed tells nobody what ran.
	it("names in its compatibility table only commits of this repository's history", () => {
		const runs: Array<{ commit: string }> = JSON.parse(
			read(join(root, 'test', 'compat', 'results.json')),
		);
		const notInHistory = runs
			.map((run) => run.commit)
			.filter((commit) => {
				const ancestor = spawnSync('git', ['merge-base', '--is-ancestor', commit, 'HEAD'], {
					cwd: root,
				});
				return ancestor.status !== 0;
			});
		if (notInHistory.length > 0) {
			throw new Error(
				`test/compat/results.json names commits not in this history: ${notInHistory.join(', ')}. ` +
					'Rerun `node scripts/compat.mjs <n8n version>` on a committed tree (or fetch the full history: ' +
					'`git fetch --unshallow`).',
			);
		}
	});

	it('keeps every anchor that the nodes and credentials link to', () => {
		const sources = filesUnder(join(root, 'nodes'), (file) => /\.(ts|json)$/.test(file)).concat(
			filesUnder(join(root, 'credentials'), (file) => file.endsWith('.ts')),
		);
		const pattern = new RegExp(
			`${repository.replace(/[./]/g, '\\$&')}(/[^'"\`\\s)#]*)?#([\\w-]+)`,
			'g',
		);
		const linked = new Set<string>();
		for (const file of sources) {
			for (const [, path, anchor] of read(file).matchAll(pattern)) {
				// Only links to the README itself: the repository's page, with no path.
				if (!path) linked.add(anchor);
			}
		}
		expect(linked.size).toBeGreaterThan(0);
		const anchors = anchorsOf(readme);
		expect([...linked].filter((anchor) => !anchors.has(anchor))).toEqual([]);
	});

	it('keeps the files that the nodes and credentials link to in the repository', () => {
		const sources = filesUnder(join(root, 'nodes'), (file) => /\.(ts|json)$/.test(file)).concat(
			filesUnder(join(root, 'credentials'), (file) => file.endsWith('.ts')),
		);
		const pattern = new RegExp(
			`${repository.replace(/[./]/g, '\\$&')}/blob/main/([^'"\`\\s)#]+)`,
			'g',
		);
		for (const file of sources) {
			for (const [, path] of read(file).matchAll(pattern)) {
				expect([relative(root, file), path, existsSync(join(root, path))]).toEqual([
					relative(root, file),
					path,
					true,
				]);
			}
		}
	});
});

describe.each(documents.map((file) => [relative(root, file), file]))('%s', (_name, file) => {
	it('links only to files and headings that exist', () => {
		const broken = relativeLinks(file).filter((target) => {
			const [path, anchor] = target.split('#');
			const linked = path ? join(dirname(file), decodeURIComponent(path)) : file;
			if (!existsSync(linked)) return true;
			if (anchor === undefined) return false;
			return !linked.endsWith('.md') || !anchorsOf(linked).has(anchor);
		});
		if (broken.length > 0) {
			throw new Error(
				`${relative(root, file)} links to files or headings that do not exist: ${broken.join(', ')}. ` +
					'Correct each link in that file, or restore the heading it points to (an anchor is the ' +
					"heading in lower case, spaces as '-', punctuation dropped).",
			);
		}
	});
});
