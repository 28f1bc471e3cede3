import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { n8nMajor } from '../e2e/harness/compat';
import { builtNodeDescriptions, packageManifest } from '../e2e/harness/fixtures';
import { packageName, packPackage } from '../e2e/harness/package';
import { startInstallerN8n, type InstallerN8n } from './installerN8n';
import { startRegistry, type Registry } from './registry';

/**
 * The Community Nodes page on PostgreSQL, the database production runs. n8n records each node's
 * last listed version in `installed_nodes.latestVersion`, an integer column in n8n 1.x: the nodes
 * list their versions newest first and end in 1 (nodeVersions.test.ts). The same build with the
 * versions oldest first, as the package listed them before, shows what that order prevents.
 */
jest.setTimeout(180_000);

const currentVersion = (packageManifest() as unknown as { version: string }).version;
const OLDEST_FIRST_VERSION = `${currentVersion}-oldest-first`;

let folder: string;
let registry: Registry;
let installer: InstallerN8n;

interface InstalledPackage {
	installedVersion: string;
	installedNodes: Array<{ type: string; latestVersion: number }>;
}

/** Review Scraper's newest version: the last one listed by the oldest-first build. */
let newestReviewScraperVersion: number;

/** This build again, Review Scraper's versions listed oldest first (a fractional one last). */
function oldestFirstBuild(tarball: string): string {
	const unpacked = path.join(folder, 'oldest-first');
	mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	const manifestFile = path.join(unpacked, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
	writeFileSync(manifestFile, JSON.stringify({ ...manifest, version: OLDEST_FIRST_VERSION }));
	const nodeFile = path.join(unpacked, 'dist/nodes/ReviewScraper/ReviewScraper.node.js');
	const code = readFileSync(nodeFile, 'utf8');
	const listed = /version: \[([\d., ]+)\],/.exec(code);
	if (!listed) throw new Error(`${nodeFile}: no version list to reorder`);
	const oldestFirst = listed[1]
		.split(',')
		.map(Number)
		.sort((a, b) => a - b);
	newestReviewScraperVersion = oldestFirst[oldestFirst.length - 1];
	if (Number.isInteger(newestReviewScraperVersion)) {
		throw new Error(`${nodeFile}: the newest version is whole; this test needs a fractional one`);
	}
	writeFileSync(nodeFile, code.replace(listed[0], `version: [${oldestFirst.join(', ')}],`));
	return unpacked;
}

beforeAll(async () => {
	folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-install-pg-'));
	const tarball = packPackage(folder);
	registry = await startRegistry();
	registry.publish(tarball);
	registry.publish(oldestFirstBuild(tarball), 'oldest-first');
	installer = await startInstallerN8n(registry, 'postgres');
}, 300_000);

afterAll(async () => {
	await installer?.stop();
	await registry?.stop();
	if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("n8n's community-node installer on PostgreSQL", () => {
	it('installs this build: every node listed with the version n8n records, served, then removed', async () => {
		const { client } = installer;
		const installed = await client.rest<InstalledPackage>('POST', '/community-packages', {
			name: packageName,
		});
		expect(installed.installedVersion).toBe(currentVersion);
		const recorded = Object.fromEntries(
			installed.installedNodes.map((node) => [node.type, node.latestVersion]),
		);
		expect(recorded).toEqual(
			Object.fromEntries(
				builtNodeDescriptions().map((d) => [
					`${packageName}.${d.name}`,
					Array.isArray(d.version) ? d.version[d.version.length - 1] : d.version,
				]),
			),
		);
		const served = (await client.nodeTypes()).filter((t) => t.name.startsWith(`${packageName}.`));
		expect(served.length).toBeGreaterThanOrEqual(builtNodeDescriptions().length);

		await client.rest('DELETE', `/community-packages?name=${encodeURIComponent(packageName)}`);
		expect(await client.rest<InstalledPackage[]>('GET', '/community-packages')).toEqual([]);
	});

	it('the same build with a node listing a fractional version last: refused by n8n 1.x, installed by 2.41', async () => {
		const { client } = installer;
		const install = client.rest<InstalledPackage>('POST', '/community-packages', {
			name: packageName,
			version: OLDEST_FIRST_VERSION,
		});
		if (n8nMajor() < 2) {
			const quoted = String(newestReviewScraperVersion).replace('.', '\\.');
			await expect(install).rejects.toThrow(
				new RegExp(`invalid input syntax for type integer: \\\\?"${quoted}\\\\?"`),
			);
			return;
		}
		// n8n 2.x made the column a double (migration ChangeInstalledNodeVersionType).
		const installed = await install;
		expect(
			installed.installedNodes.find((node) => node.type === `${packageName}.reviewScraper`)
				?.latestVersion,
		).toBe(newestReviewScraperVersion);
		await client.rest('DELETE', `/community-packages?name=${encodeURIComponent(packageName)}`);
	});
});
