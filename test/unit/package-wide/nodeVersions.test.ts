import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { packageNodes, repoRoot } from '../nodeClasses';

/**
 * n8n's installer records a node's last listed version as its latest (`version.slice(-1)[0]` in
 * n8n-core's directory loader), in `installed_nodes.latestVersion`: an integer column on
 * PostgreSQL and MySQL in n8n 1.x (1.123.81 included) and in 2.x before its 2026 migration to a
 * double. A package whose last listed version is 1.2 is refused there as a whole ("invalid input
 * syntax for type integer", n8n-io/n8n#16836, #23456), on the databases production runs. So the
 * versions are listed newest first and end in an integer; the editor gives a new node
 * `defaultVersion`, and the rest of n8n takes the highest version wherever it needs the newest.
 */
describe('node versions as n8n records them', () => {
	it('keeps every node type name (saved workflows refer to them)', () => {
		const released =
			'reviewScraper ecommerceSearch socialScraper scrapingScheduler scrapingCallbackTrigger scheduledScrapeTrigger scrapingDelivery';
		expect(packageNodes.map(({ node }) => node.description.name)).toEqual(released.split(' '));
	});

	it.each(packageNodes.map(({ folder, node }) => [folder, node.description]))(
		'%s: the last listed version is a whole number; defaultVersion is the highest',
		(_folder, description) => {
			const versions = [description.version].flat();
			expect(Number.isInteger(versions.at(-1))).toBe(true);
			expect(description.defaultVersion ?? versions[0]).toBe(Math.max(...versions));
			expect(new Set(versions).size).toBe(versions.length);
		},
	);
});

/**
 * A node's versions.ts names the first version of each change: one that is not listed would show
 * a field to no version, or to every version of a saved workflow.
 */
describe('the first version of each change is one the node lists, after the first', () => {
	const withChanges = packageNodes.filter(({ folder }) =>
		existsSync(join(repoRoot, 'nodes', folder, 'versions.ts')),
	);

	it('covers every node with more than one version', () => {
		const multiVersion = packageNodes.filter(({ node }) => Array.isArray(node.description.version));
		const folders = (list: typeof packageNodes) => list.map(({ folder }) => folder);
		expect(folders(withChanges)).toEqual(folders(multiVersion));
	});

	it.each(withChanges.map(({ folder, node }) => [folder, [node.description.version].flat()]))(
		'%s',
		(folder, listed) => {
			const changes = require(join(repoRoot, 'nodes', folder, 'versions')) as Record<
				string,
				number
			>;
			expect(Object.keys(changes).length).toBeGreaterThan(0);
			const unlisted = Object.entries(changes).filter(
				([, first]) => !listed.includes(first) || first === Math.min(...listed),
			);
			expect(unlisted).toEqual([]);
		},
	);
});
