import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cachedBaselineTarball } from '../../bench/lib/baseline';
import type { Simulator } from '../../simulator/server';
import { type N8nClient, type WorkflowNode } from '../e2e/harness/client';
import { n8nMajor } from '../e2e/harness/compat';
import {
	builtCredentialTypes,
	builtNodeDescriptions,
	createSimulatorCredentials,
	packageManifest,
	startSimulator,
} from '../e2e/harness/fixtures';
import type { N8nInstance } from '../e2e/harness/n8n-process';
import { packageName, packPackage } from '../e2e/harness/package';
import { repoRoot } from '../e2e/harness/paths';
import {
	activateChain,
	nodeOutput,
	packageNode,
	postToWebhook,
	productionUrl,
	waitForExecutionStatus,
	webhookNode,
} from '../e2e/harness/workflows';
import { startInstallerN8n, type InstallerN8n } from './installerN8n';
import { startRegistry, type Registry } from './registry';

// The last commit before Review Scraper, E-commerce Search and Social Scraper got version 1.2
// (acf0c86): its nodes are at 1.1 at most, as a user's install from before then would be.
const PREVIOUS_COMMIT = '7670e66b87696901d549e44b6329a7f9e1b31a9c';
// Lower than any release, so the current build is the update whatever its version.
const PREVIOUS_VERSION = '0.0.0-git.7670e66';

// A jest project's own testTimeout is not applied (it is a global option).
jest.setTimeout(180_000);

let registry: Registry;
let n8n: N8nInstance;
let client: N8nClient;
let simulator: Simulator;
let userFolder: string;
let installer: InstallerN8n | undefined;
let packFolder: string | undefined;
let credentials: Record<string, { id: string; name: string }>;
const currentVersion = (packageManifest() as unknown as { version: string }).version;

const nodesFolder = () => path.join(userFolder, '.n8n', 'nodes');
const installedFolder = () => path.join(nodesFolder(), 'node_modules', packageName);
/** n8n 1.x's uninstall deletes the package's folder and leaves its entry in the ledger. */
const ledgerAfterUninstall = (version: string) =>
	n8nMajor() >= 2 ? {} : { [packageName]: version };
const ledger = () =>
	JSON.parse(readFileSync(path.join(nodesFolder(), 'package.json'), 'utf8')) as {
		dependencies: Record<string, string>;
	};

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	updateAvailable?: string;
	failedLoading?: boolean;
	installedNodes: Array<{ name: string; type: string; latestVersion: number }>;
}

const listPackages = () => client.rest<InstalledPackage[]>('GET', '/community-packages');
const ourTypes = async () =>
	(await client.nodeTypes()).filter((type) => type.name.startsWith(`${packageName}.`));

interface LogLine {
	level: string;
	message: string;
	metadata?: Record<string, unknown>;
}

/** n8n's log (JSON lines) from byte `from` on. */
function logLines(from = 0): LogLine[] {
	return readFileSync(n8n.logFile)
		.subarray(from)
		.toString('utf8')
		.split('\n')
		.filter((line) => line.startsWith('{'))
		.map((line) => JSON.parse(line) as LogLine);
}

const logSize = () => statSync(n8n.logFile).size;

/** Warnings and errors n8n logged from byte `from` on. */
function complaintsSince(from: number): LogLine[] {
	return logLines(from).filter(
		(line) =>
			(line.level === 'warn' || line.level === 'error') &&
			// The harness's calls right after activation, retried until the webhook is registered.
			!line.message.startsWith('Received request for unknown webhook'),
	);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms for up to `timeoutMs`; returns its last answer. */
async function until<T>(check: () => T | Promise<T>, timeoutMs = 15_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let answer = await check();
	while (!answer && Date.now() < deadline) {
		await sleep(100);
		answer = await check();
	}
	return answer;
}

/**
 * n8n 2.41 takes a deactivated workflow's triggers and webhooks down after the API call returns;
 * an uninstall before that leaves them up (the trigger's schedule at the service) and logs errors.
 * n8n 1.x does it before answering, and has no publication status to ask.
 */
async function deactivateAll(ids: string[]): Promise<void> {
	for (const id of ids) await client.deactivate(id);
	if (n8nMajor() < 2) {
		for (const id of ids) expect((await client.getWorkflow(id)).active).toBe(false);
		return;
	}
	for (const id of ids) {
		let status = '';
		await until(async () => {
			const path = `/workflows/${id}/publication-status`;
			({ status } = await client.rest<{ status: string }>('GET', path));
			return status === 'not_published';
		});
		expect({ id, status }).toEqual({ id, status: 'not_published' });
	}
}

const latest = (version: number | number[]) =>
	Array.isArray(version) ? Math.max(...version) : version;
/** What n8n's installer records as a node's latest version: the last one listed. */
const recorded = (version: number | number[]) =>
	Array.isArray(version) ? version[version.length - 1] : version;

beforeAll(async () => {
	packFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-install-pack-'));
	const tarball = packPackage(packFolder);
	const packed = new Set(
		execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
			.split('\n')
			.map((entry) => entry.replace(/^package\//, '')),
	);
	const { n8n: declared } = packageManifest();
	const missing = [...declared.nodes, ...declared.credentials].filter((file) => !packed.has(file));
	if (missing.length > 0) {
		throw new Error(`the packed package lacks ${missing.join(', ')}: run npm run build first`);
	}
	registry = await startRegistry();
	registry.publish(tarball);
	// SQLite on every major: the previous release lists 1.1 last, which n8n 1.x on PostgreSQL
	// refuses to install (nodeVersions.test.ts); postgres.test.ts installs this build there.
	installer = await startInstallerN8n(registry, 'sqlite');
	({ n8n, client, userFolder } = installer);
	simulator = await startSimulator();
}, 300_000);

afterAll(async () => {
	await simulator?.stop();
	await installer?.stop();
	await registry?.stop();
	if (packFolder) rmSync(packFolder, { recursive: true, force: true });
});

describe("n8n's community-node installer, from a local registry", () => {
	let installLogFrom = 0;

	it('installs by name, as the Community Nodes page does: the nodes of package.json', async () => {
		expect(await listPackages()).toEqual([]);
		installLogFrom = logSize();
		const installed = await client.rest<InstalledPackage>('POST', '/community-packages', {
			name: packageName,
		});
		expect(installed.packageName).toBe(packageName);
		expect(installed.installedVersion).toBe(currentVersion);
		const expected = builtNodeDescriptions().map((description) => ({
			name: description.displayName,
			type: `${packageName}.${description.name}`,
			latestVersion: recorded(description.version),
		}));
		expect(expected.length).toBe(packageManifest().n8n.nodes.length);
		const byType = (a: { type: string }, b: { type: string }) => a.type.localeCompare(b.type);
		expect(
			installed.installedNodes
				.map(({ name, type, latestVersion }) => ({ name, type, latestVersion }))
				.sort(byType),
		).toEqual(expected.sort(byType));

		const [listed] = await listPackages();
		expect(listed).toEqual(
			expect.objectContaining({
				packageName,
				installedVersion: currentVersion,
			}),
		);
		// n8n 1.x's list has no failedLoading at all.
		expect(listed.failedLoading).not.toBe(true);
		expect(listed.updateAvailable).toBeUndefined();

		// What n8n's installer wrote: the package without its dev and peer dependencies, and the
		// nodes folder's ledger.
		const manifest = JSON.parse(readFileSync(path.join(installedFolder(), 'package.json'), 'utf8'));
		expect(manifest.version).toBe(currentVersion);
		expect(manifest).not.toHaveProperty('devDependencies');
		expect(manifest).not.toHaveProperty('peerDependencies');
		expect(ledger().dependencies).toEqual({ [packageName]: currentVersion });
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			expect(existsSync(path.join(installedFolder(), file))).toBe(true);
		}
	});

	it('serves every node type, tool variant, credential type and icon to the editor', async () => {
		const types = new Map((await ourTypes()).map((type) => [type.name, type]));
		const descriptions = builtNodeDescriptions();
		const expectedTypes = descriptions.flatMap((d) => [
			`${packageName}.${d.name}`,
			...(d.usableAsTool ? [`${packageName}.${d.name}Tool`] : []),
		]);
		expect([...types.keys()].sort()).toEqual(expectedTypes.sort());
		for (const description of descriptions) {
			const served = types.get(`${packageName}.${description.name}`);
			expect(served?.displayName).toBe(description.displayName);
			expect(served?.version).toEqual(description.version);
		}

		const credentialTypes = new Map(
			(await client.credentialTypes()).map((type) => [type.name, type]),
		);
		const declared = builtCredentialTypes();
		expect(declared.length).toBe(packageManifest().n8n.credentials.length);
		for (const credential of declared) {
			expect(credentialTypes.get(credential.name)?.displayName).toBe(credential.displayName);
		}

		const icons = new Set<string>();
		for (const type of [...types.values(), ...declared.map((c) => credentialTypes.get(c.name)!)]) {
			const { iconUrl } = type as unknown as { iconUrl?: string | { light: string; dark: string } };
			expect(iconUrl).toBeDefined();
			for (const url of typeof iconUrl === 'string' ? [iconUrl] : Object.values(iconUrl!)) {
				icons.add(url);
			}
		}
		for (const icon of icons) {
			const res = await fetch(`${n8n.url}/${icon}`, { signal: AbortSignal.timeout(10_000) });
			const body = await res.text();
			expect({ icon, status: res.status }).toEqual({ icon, status: 200 });
			const prefix = `icons/${packageName}/`;
			expect(icon.startsWith(prefix)).toBe(true);
			expect(body).toBe(readFileSync(path.join(repoRoot, icon.slice(prefix.length)), 'utf8'));
		}
	});

	it('uninstalls: no list entry, node or credential type, file or ledger entry', async () => {
		const iconOf = ((await ourTypes())[0] as unknown as { iconUrl: { light: string } }).iconUrl
			.light;
		await client.rest('DELETE', `/community-packages?name=${encodeURIComponent(packageName)}`);
		expect(await listPackages()).toEqual([]);
		expect(await ourTypes()).toEqual([]);
		const credentialNames = new Set((await client.credentialTypes()).map((type) => type.name));
		for (const credential of builtCredentialTypes()) {
			expect(credentialNames.has(credential.name)).toBe(false);
		}
		expect(existsSync(installedFolder())).toBe(false);
		const leftovers = readdirSync(path.join(nodesFolder(), 'node_modules')).filter((entry) =>
			entry.startsWith(packageName),
		);
		expect(leftovers).toEqual([]);
		expect(ledger().dependencies).toEqual(ledgerAfterUninstall(currentVersion));
		const icon = await fetch(`${n8n.url}/${iconOf}`, { signal: AbortSignal.timeout(10_000) });
		expect(icon.status).toBe(404);
	});

	it("left no warning or error in n8n's log from the install to the uninstall", () => {
		const lines = logLines(installLogFrom);
		const messages = lines.map((line) => line.message);
		expect(messages).toContain(`Community package installed: ${packageName}`);
		expect(messages).toContain(`Community package uninstalled: ${packageName}`);
		expect(complaintsSince(installLogFrom)).toEqual([]);
	});
});

/** One request as the service saw it, without what differs from call to call. */
const asSent = (r: ReturnType<Simulator['requests']>[number]) => ({
	api: r.api,
	method: r.method,
	path: r.path,
	query: r.query,
	body: r.body,
});

const RECURRING_URL = 'https://www.example.com/biz/update-recurring';

describe('an update through the installer, with workflows saved on node versions 1 and 1.1', () => {
	let republished: string | undefined;
	const saved: Array<{ label: string; id: string; path: string; node: string }> = [];
	const firstRun = new Map<string, { requests: unknown[]; shape: string[][] }>();
	let callbacksId = '';
	let callbackUrl = '';
	let recurringId = '';
	let updateLogFrom = 0;
	let waitingId = '';

	beforeAll(() => {
		try {
			execFileSync('git', ['cat-file', '-e', `${PREVIOUS_COMMIT}^{commit}`], { stdio: 'ignore' });
		} catch {
			throw new Error(`commit ${PREVIOUS_COMMIT} is not in this clone (a shallow clone?)`);
		}
		const previous = cachedBaselineTarball(PREVIOUS_COMMIT);
		republished = mkdtempSync(path.join(os.tmpdir(), 'n8n-install-previous-'));
		const folder = republished;
		execFileSync('tar', ['-xzf', previous, '-C', folder, '--strip-components=1']);
		const manifestPath = path.join(folder, 'package.json');
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
		writeFileSync(
			manifestPath,
			JSON.stringify({ ...manifest, version: PREVIOUS_VERSION }, null, 2),
		);
		registry.publish(folder, 'previous');
	}, 180_000);

	afterAll(() => republished && rmSync(republished, { recursive: true, force: true }));

	it('the registry holds both releases, the current one as latest', async () => {
		const packument = await registry.packument(packageName);
		expect(Object.keys(packument.versions).sort()).toEqual(
			[PREVIOUS_VERSION, currentVersion].sort(),
		);
		expect(packument['dist-tags'].latest).toBe(currentVersion);
	});

	it('installs the previous release by version; the list offers the update', async () => {
		updateLogFrom = logSize();
		const installed = await client.rest<InstalledPackage>('POST', '/community-packages', {
			name: packageName,
			version: PREVIOUS_VERSION,
		});
		expect(installed.installedVersion).toBe(PREVIOUS_VERSION);
		const latestVersions = Object.fromEntries(
			installed.installedNodes.map((node) => [node.type.split('.')[1], node.latestVersion]),
		);
		expect(latestVersions).toEqual({
			reviewScraper: 1.1,
			ecommerceSearch: 1.1,
			socialScraper: 1.1,
			scrapingScheduler: 1.1,
			scrapingCallbackTrigger: 1,
			scheduledScrapeTrigger: 1,
		});
		const [listed] = await listPackages();
		expect(listed.installedVersion).toBe(PREVIOUS_VERSION);
		expect(listed.updateAvailable).toBe(currentVersion);
	});

	it('runs workflows saved on versions 1 and 1.1 of every action node, both triggers', async () => {
		credentials = await createSimulatorCredentials(client, simulator, 'update');
		const { scrapingApi, reviewScraperApi } = credentials;
		const trigger = packageNode('scrapingCallbackTrigger', 'Callbacks', {});
		callbacksId = await activateChain(client, 'update callbacks', [trigger]);
		callbackUrl = productionUrl(n8n.url, trigger, 'callback');
		expect((await postToWebhook(callbackUrl, {})).status).toBe(400);

		const actions: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
			[
				'reviewScraper',
				'Review Scraper',
				{
					resource: 'profile',
					operation: 'add',
					url: 'https://www.example.com/biz/update',
					additionalFields: { blocks: 5, externalIdentifier: 'update', fromDate: '2024-01-31' },
				},
				{ reviewScraperApi },
			],
			[
				'ecommerceSearch',
				'E-commerce Search',
				{
					resource: 'product',
					operation: 'search',
					keyword: 'update headphones',
					sources: ['amazon', 'ebay'],
					callbackUrl,
					filters: { rating: { condition: [{ operator: 'gte', value: 4 }] } },
				},
				{ scrapingApi },
			],
			[
				'socialScraper',
				'Social Scraper',
				{
					resource: 'photoPost',
					operation: 'search',
					keyword: '#update',
					callbackUrl,
					additionalFields: { externalIdentifier: 'update-photos' },
				},
				{ scrapingApi },
			],
			[
				'scrapingScheduler',
				'Scraping Scheduler',
				{
					resource: 'schedule',
					operation: 'create',
					service: 'rsapi',
					endpoint: 'add',
					frequency: 'daily',
					scheduleName: 'update',
					parametersInput: 'keyValue',
					queryParameters: {
						parameter: [
							{ name: 'url', value: 'https://www.example.com/biz/update-schedule' },
							{ name: 'callback', value: callbackUrl },
						],
					},
				},
				{ scrapingApi },
			],
		];
		for (const [type, name, parameters, credential] of actions) {
			for (const typeVersion of [1, 1.1]) {
				const webhookPath = `update-${randomUUID()}`;
				const node = {
					...packageNode(type, name, parameters, credential as WorkflowNode['credentials']),
					typeVersion,
				};
				const label = `${type} ${typeVersion}`;
				const id = await activateChain(client, `update ${label}`, [webhookNode(webhookPath), node]);
				saved.push({ label, id, path: webhookPath, node: name });
			}
		}

		const recurring = packageNode(
			'scheduledScrapeTrigger',
			'Recurring Reviews',
			{
				collect: 'profile',
				frequency: 'weekly',
				url: RECURRING_URL,
				externalIdentifier: 'update-recurring',
			},
			{ scrapingApi },
		);
		recurringId = await activateChain(client, 'update recurring', [recurring]);
		// Activation creates the trigger's schedule after the API call returns.
		expect(await until(recurringSchedule)).toBeDefined();

		for (const workflow of saved) {
			const run = await runSaved(workflow, 1);
			firstRun.set(workflow.label, run);
			expect({ workflow: workflow.label, requests: run.requests.length }).toEqual({
				workflow: workflow.label,
				requests: 1,
			});
		}
		await expectRecurringRuns(1);
		// One callback each from E-commerce Search and Social Scraper, in both versions.
		await expectCallbacks(4);
	});

	it('updates by PATCH: saved workflows send the same requests, give the same output', async () => {
		// Social Scraper 1.1 waiting for its callback across the update: the service holds the job
		// until the update is done (a fixed delay raced a slow install), and the new code resumes
		// what the old one put to wait.
		simulator.configure({ holdCompletion: true });
		const waitPath = `update-wait-${randomUUID()}`;
		waitingId = await activateChain(client, 'update waiting', [
			webhookNode(waitPath, { respond: 'onReceived' }),
			{
				...packageNode(
					'socialScraper',
					'Social Scraper',
					{
						resource: 'photoPost',
						operation: 'search',
						keyword: '#update-wait',
						waitForCompletion: true,
						waitTimeLimit: 5,
					},
					{ scrapingApi: credentials.scrapingApi },
				),
				typeVersion: 1.1,
			},
		]);
		expect((await client.callWebhook(waitPath, {})).status).toBe(200);
		const waiting = await waitForExecutionStatus(client, waitingId, 'waiting', 15_000);

		const updated = await client.rest<InstalledPackage>('PATCH', '/community-packages', {
			name: packageName,
			version: currentVersion,
		});
		expect((await client.getExecution(waiting.id)).status).toBe('waiting');
		simulator.configure({ holdCompletion: false });
		expect(simulator.releaseHeldJobs()).toBe(1);
		expect(updated.installedVersion).toBe(currentVersion);
		const [listed] = await listPackages();
		expect(listed.installedVersion).toBe(currentVersion);
		expect(listed.updateAvailable).toBeUndefined();
		expect(ledger().dependencies).toEqual({ [packageName]: currentVersion });

		// A node added now gets the newest version; the saved ones keep theirs.
		const served = new Map((await ourTypes()).map((type) => [type.name, type]));
		for (const description of builtNodeDescriptions()) {
			const type = served.get(`${packageName}.${description.name}`) as unknown as {
				version: number | number[];
				defaultVersion?: number;
			};
			expect(type.defaultVersion ?? latest(type.version)).toBe(
				description.defaultVersion ?? latest(description.version),
			);
		}
		expect(
			updated.installedNodes.find((node) => node.type === `${packageName}.reviewScraper`)
				?.latestVersion,
		).toBe(1);
		for (const workflow of saved) {
			const stored = await client.getWorkflow(workflow.id);
			expect(stored.active).toBe(true);
			const version = stored.nodes.find((node) => node.name === workflow.node)?.typeVersion;
			expect(`${workflow.label.split(' ')[0]} ${version}`).toBe(workflow.label);
		}

		for (const workflow of saved) {
			const again = await runSaved(workflow, 2);
			expect({ workflow: workflow.label, ...again }).toEqual({
				workflow: workflow.label,
				...firstRun.get(workflow.label),
			});
		}
		await expectRecurringRuns(2);
		await expectCallbacks(8);

		const [resumed] = await client.waitForExecutions(waitingId, 1, 30_000);
		expect(resumed.id).toBe(waiting.id);
		expect(resumed.status).toBe('success');
		const posts = nodeOutput(resumed, 'Social Scraper');
		expect(posts.length).toBeGreaterThan(0);
		expect(posts.map((post) => [typeof post.request_id, post.wait_status])).toEqual(
			posts.map(() => ['string', 'completed']),
		);
	});

	it('uninstalls the updated package', async () => {
		await deactivateAll([...saved.map((w) => w.id), callbacksId, recurringId, waitingId]);
		expect(recurringSchedule()).toBeUndefined();
		await client.rest('DELETE', `/community-packages?name=${encodeURIComponent(packageName)}`);
		expect(await listPackages()).toEqual([]);
		expect(await ourTypes()).toEqual([]);
		expect(existsSync(installedFolder())).toBe(false);
		expect(ledger().dependencies).toEqual(ledgerAfterUninstall(currentVersion));
	});

	it("left no warning or error in n8n's log from the first install to the uninstall", () => {
		const messages = logLines(updateLogFrom).map((line) => line.message);
		expect(messages.filter((m) => m.startsWith('Community package'))).toEqual([
			`Community package installed: ${packageName}`,
			`Community package installed: ${packageName}`,
			`Community package uninstalled: ${packageName}`,
		]);
		expect(complaintsSince(updateLogFrom)).toEqual([]);
	});

	/** Calls a saved workflow's webhook; returns what the service received and the output's keys. */
	async function runSaved(workflow: (typeof saved)[number], nth: number) {
		const mark = Math.max(0, ...simulator.requests().map((r) => r.seq));
		const res = await client.callWebhook(workflow.path, {});
		expect({ workflow: workflow.label, status: res.status }).toEqual({
			workflow: workflow.label,
			status: 200,
		});
		await res.arrayBuffer();
		const [execution] = await client.waitForExecutions(workflow.id, nth, 30_000);
		expect({ workflow: workflow.label, status: execution.status }).toEqual({
			workflow: workflow.label,
			status: 'success',
		});
		const requests = simulator
			.requests()
			.filter((r) => r.seq > mark && r.origin !== 'schedule')
			.map(asSent);
		const shape = nodeOutput(execution, workflow.node).map((item) => Object.keys(item).sort());
		return { requests, shape };
	}

	function recurringSchedule() {
		return [...simulator.state.schedules.values()]
			.map((record) => record.schedule)
			.find((schedule) => schedule.payload.query_params.url === RECURRING_URL);
	}

	/** Fires the Recurring Reviews Trigger's schedule and waits for the execution it starts. */
	async function expectRecurringRuns(count: number) {
		const schedule = recurringSchedule();
		expect(schedule).toBeDefined();
		const fired = await simulator.fireSchedule(schedule!.schedule_id);
		expect(fired.response.status).toBe(200);
		const runs = await client.waitForExecutions(recurringId, count, 30_000);
		expect(runs.map((run) => run.status)).toEqual(Array(count).fill('success'));
		expect(Object.keys(nodeOutput(runs[0], 'Recurring Reviews')[0]).sort()).toEqual(
			Object.keys(nodeOutput(runs[runs.length - 1], 'Recurring Reviews')[0]).sort(),
		);
	}

	async function expectCallbacks(count: number) {
		const runs = await client.waitForExecutions(callbacksId, count, 30_000);
		expect(runs.map((run) => run.status)).toEqual(Array(count).fill('success'));
	}
});
