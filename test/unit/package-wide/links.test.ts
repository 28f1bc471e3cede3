import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { repoRoot as root, trackedFiles } from '../nodeClasses';

const repository = 'github.com/n8n-nodes-review-scraping/n8n-nodes-review-scraping';
const read = (file: string): string => readFileSync(file, 'utf8');
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to hyphens. */
const slug = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/\]\([^)]*\)/g, '')
		.replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
		.replace(/ /g, '-');

/** Every anchor of a Markdown file's headings, numbered as GitHub numbers repeats. */
function anchorsOf(file: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const [, heading] of withoutCode(read(file)).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** Whether a link target (`path#anchor`, relative to `from`) names a file, and a heading of it. */
function resolves(from: string, target: string): boolean {
	const [path, anchor] = target.split('#');
	const linked = path ? join(dirname(from), decodeURIComponent(path)) : from;
	if (!existsSync(linked)) return false;
	return anchor === undefined || (linked.endsWith('.md') && anchorsOf(linked).has(anchor));
}

const documents = trackedFiles('*.md');

describe.each(documents.map((file) => [relative(root, file), file]))('%s', (_name, file) => {
	it('links only to files and headings that exist', () => {
		const targets = [
			...withoutCode(read(file))
				.replace(/`[^`\n]*`/g, '')
				.matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g),
		]
			.map((match) => match[1])
			.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
		expect(targets.filter((target) => !resolves(file, target))).toEqual([]);
	});
});

describe('links from the nodes and credentials to the repository', () => {
	const sources = trackedFiles('nodes', 'credentials').filter((file) => /\.(ts|json)$/.test(file));
	const escaped = repository.replace(/[./]/g, '\\$&');
	const linksIn = (pattern: RegExp) =>
		sources.flatMap((file) =>
			[...read(file).matchAll(pattern)].map(([, target]) => [relative(root, file), target]),
		);

	it('point at headings of the README and files that exist', () => {
		const readmeAnchors = linksIn(new RegExp(`${escaped}#([\\w-]+)`, 'g'));
		const files = linksIn(new RegExp(`${escaped}/blob/main/([^'"\`\\s)]+)`, 'g'));
		expect(readmeAnchors.length + files.length).toBeGreaterThan(3);
		const broken = [
			...readmeAnchors.filter(([, anchor]) => !resolves(join(root, 'README.md'), `#${anchor}`)),
			...files.filter(([, target]) => !resolves(join(root, 'README.md'), target)),
		];
		expect(broken).toEqual([]);
	});
});

describe('citations of docs/service-facts.md in code', () => {
	it('name headings of that page', () => {
		const facts = join(root, 'docs', 'service-facts.md');
		const sources = trackedFiles(
			'nodes',
			'credentials',
			'simulator',
			'test',
			'scripts',
			'bench',
		).filter((file) => /\.(ts|mjs|js)$/.test(file));
		const cited = sources.flatMap((file) =>
			[...read(file).matchAll(/service-facts\.md#([\w-]+)/g)].map(([, anchor]) => [
				relative(root, file),
				anchor,
			]),
		);
		expect(cited.length).toBeGreaterThan(10);
		expect(cited.filter(([, anchor]) => !resolves(facts, `#${anchor}`))).toEqual([]);
	});
});
