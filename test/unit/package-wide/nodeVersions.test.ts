import { packageNodes } from '../nodeClasses';

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
	it.each(packageNodes.map(({ folder, node }) => [folder, node.description]))(
		'%s: the last listed version is a whole number; defaultVersion is the highest',
		(_folder, description) => {
			const versions = Array.isArray(description.version)
				? description.version
				: [description.version];
			expect(Number.isInteger(versions[versions.length - 1])).toBe(true);
			expect(description.defaultVersion ?? versions[0]).toBe(Math.max(...versions));
			expect(new Set(versions).size).toBe(versions.length);
		},
	);
});
