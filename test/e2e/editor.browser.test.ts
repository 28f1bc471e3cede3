import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import type { Locator, Page } from 'playwright-core';

import { launchBrowser, openInEditor, signIn, type Browser } from './harness/browser';
import { loadExamples, prepareExample } from './harness/examples';
import {
	builtCredentialTypes,
	builtNodeDescriptions,
	createSimulatorCredentials,
	packageManifest,
	startSimulator,
} from './harness/fixtures';
import { artifactsDir } from './harness/paths';
import { connect, type SuiteState } from './harness/state';

const screenshots = path.join(artifactsDir, 'screenshots');

let state: SuiteState;
let browser: Browser;
let page: Page;

const shot = (name: string) => page.screenshot({ path: path.join(screenshots, `${name}.png`) });

/** A test body that leaves a screenshot of the page when it fails. */
const step = (name: string, body: () => Promise<void>) => async () => {
	try {
		await body();
	} catch (error) {
		await shot(`failed-${name}`).catch(() => undefined);
		throw error;
	}
};

beforeAll(async () => {
	state = connect().state;
	rmSync(screenshots, { recursive: true, force: true });
	mkdirSync(screenshots, { recursive: true });
	browser = await launchBrowser();
	page = browser.page;
});

afterAll(async () => {
	await browser?.close();
});

const [reviewScraper] = builtNodeDescriptions().filter((d) => d.name === 'reviewScraper');

interface OperationOption {
	name: string;
	value: string;
	action?: string;
}

/** Resources and, per resource, the operations the node description declares. */
function declaredOperations(): Array<{
	resource: string;
	resourceName: string;
	operations: OperationOption[];
}> {
	const resource = reviewScraper.properties.find((p) => p.name === 'resource')!;
	return (resource.options as Array<{ name: string; value: string }>).map((option) => {
		const operation = reviewScraper.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(option.value),
		)!;
		return {
			resource: option.value,
			resourceName: option.name,
			operations: operation.options as OperationOption[],
		};
	});
}

/** Display names of the simple parameters shown for a resource and operation, before any input. */
function visibleParameters(resource: string, operation: string): string[] {
	return reviewScraper.properties
		.filter((p) => {
			if (['notice', 'collection', 'fixedCollection', 'hidden'].includes(p.type)) return false;
			if (p.displayOptions?.hide) return false;
			const show = p.displayOptions?.show ?? {};
			if (Object.keys(show).some((key) => key !== 'resource' && key !== 'operation')) return false;
			return (
				(!show.resource || show.resource.includes(resource)) &&
				(!show.operation || show.operation.includes(operation))
			);
		})
		.map((p) => p.displayName);
}

const parameterValue = (parameter: string) =>
	page.locator(`[data-test-id="parameter-input-${parameter}"] input`).first().inputValue();

/** Node types in examples/ that need a credential other than the package's (the user's own). */
const CREDENTIALS_OF_OTHERS: Record<string, string> = {
	'@n8n/n8n-nodes-langchain.lmChatOpenAi': 'openAiApi',
};

const ERROR_TEXT = /not currently installed|install this node|problem loading|could not load/i;

const latestVersion = (description: INodeTypeDescription) =>
	description.defaultVersion ??
	(Array.isArray(description.version) ? Math.max(...description.version) : description.version);

/** Every resource → operation a node declares for a version, or one entry for a node without. */
function operationsOf(
	description: INodeTypeDescription,
): Array<{ resource?: string; operation?: string; label: string }> {
	const version = latestVersion(description);
	const forVersion = (p: INodeProperties) => {
		const versions = p.displayOptions?.show?.['@version'] as unknown[] | undefined;
		return !versions || versions.some((v) => v === version || typeof v === 'object');
	};
	const resource = description.properties.find((p) => p.name === 'resource');
	if (!resource) return [{ label: description.displayName }];
	return (resource.options as INodePropertyOptions[]).flatMap((r) => {
		const operation = description.properties.find(
			(p) =>
				p.name === 'operation' &&
				forVersion(p) &&
				(p.displayOptions?.show?.resource as unknown[] | undefined)?.includes(r.value),
		)!;
		return (operation.options as INodePropertyOptions[]).map((o) => ({
			resource: String(r.value),
			operation: String(o.value),
			label: `${r.name} → ${o.name}`,
		}));
	});
}

/** Creates a workflow holding one node of the package and opens that node's panel. */
async function openNode(
	description: INodeTypeDescription,
	parameters: Record<string, unknown>,
	typeVersion = latestVersion(description),
	credentials?: Record<string, { id: string; name: string }>,
): Promise<Locator> {
	const { client } = connect();
	const { name: packageName } = packageManifest();
	const { id } = await client.createWorkflow({
		// n8n takes a workflow name of at most 128 characters.
		name: `editor check: ${description.displayName} ${JSON.stringify(parameters)}`.slice(0, 128),
		nodes: [
			{
				id: `editor-${description.name}`,
				name: description.displayName,
				type: `${packageName}.${description.name}`,
				typeVersion,
				position: [0, 0],
				parameters,
				...(credentials ? { credentials } : {}),
				...(description.webhooks ? { webhookId: `editor-${description.name}-${Date.now()}` } : {}),
			},
		],
		connections: {},
	});
	await openInEditor(page, `${state.n8nUrl}/workflow/${id}`);
	const node = page.locator('[data-test-id="canvas-node"]').first();
	await node.waitFor();
	await page.keyboard.press('Escape');
	await node.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor();
	const firstParameter = description.properties.find((p) => p.type !== 'notice')!;
	await ndv.locator(`[data-test-id="parameter-input-${firstParameter.name}"]`).first().waitFor();
	return ndv;
}

interface CanvasEntry {
	description: INodeTypeDescription;
	parameters: Record<string, unknown>;
	typeVersion?: number;
}

/**
 * One saved workflow holding a node for each entry, loaded once: the editor loads (4 to 11 s
 * here) once for all of them instead of once per node, and each node is then opened from the
 * canvas as a user opens it. Gives the function that opens the entry at an index.
 */
async function openCanvasOf(
	title: string,
	entries: CanvasEntry[],
): Promise<(index: number) => Promise<Locator>> {
	const { client } = connect();
	const { name: packageName } = packageManifest();
	// "N01 " to "N99 ": a name no other name contains, and each contains its node's display name.
	const names = entries.map(
		(entry, index) => `N${String(index + 1).padStart(2, '0')} ${entry.description.displayName}`,
	);
	const { id } = await client.createWorkflow({
		name: `editor check: ${title}`,
		nodes: entries.map((entry, index) => ({
			id: `editor-${index}`,
			name: names[index],
			type: `${packageName}.${entry.description.name}`,
			typeVersion: entry.typeVersion ?? latestVersion(entry.description),
			position: [(index % 6) * 300, Math.floor(index / 6) * 300],
			parameters: entry.parameters,
			...(entry.description.webhooks
				? { webhookId: `editor-${entry.description.name}-${index}-${Date.now()}` }
				: {}),
		})),
		connections: {},
	});
	await openInEditor(page, `${state.n8nUrl}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await page.keyboard.press('Escape');
	return async (index) => {
		const { description } = entries[index];
		await page
			.locator('[data-test-id="canvas-node"]', { hasText: `${names[index]}` })
			.first()
			.dblclick();
		const ndv = page.locator('[data-test-id="ndv"]');
		await ndv.waitFor();
		const firstParameter = description.properties.find((p) => p.type !== 'notice')!;
		await ndv.locator(`[data-test-id="parameter-input-${firstParameter.name}"]`).first().waitFor();
		// The panel is this entry's, not another node of the same type on the canvas.
		await expect(ndv.innerText()).resolves.toContain(names[index]);
		return ndv;
	};
}

/**
 * The part of the page that shows the workflow: its nodes and sticky notes, with a margin (more
 * below, where the nodes' names are written under them).
 */
async function workflowArea(
	margin = 40,
): Promise<{ x: number; y: number; width: number; height: number }> {
	const boxes = (
		await Promise.all(
			(await page.locator('[data-test-id="canvas"] .vue-flow__node').all()).map((node) =>
				node.boundingBox(),
			),
		)
	).filter((box) => box !== null);
	expect(boxes.length).toBeGreaterThan(0);
	const viewport = page.viewportSize()!;
	const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
	const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
	const right = Math.min(viewport.width, Math.max(...boxes.map((b) => b.x + b.width)) + margin);
	const bottom = Math.min(
		viewport.height,
		Math.max(...boxes.map((b) => b.y + b.height)) + 2 * margin,
	);
	return { x, y, width: right - x, height: bottom - y };
}

const describedNode = (name: string) => builtNodeDescriptions().find((d) => d.name === name)!;
const fileName = (text: string) => text.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The names the node panel lists for a search, once every expected name is shown. */
async function searchNodePanel(term: string, expected: string[]): Promise<string[]> {
	const search = page.locator('[data-test-id="node-creator-search-bar"]').locator('visible=true');
	await search.first().fill(term);
	const names = page.locator('[data-test-id="node-creator-item-name"]');
	for (const name of expected) {
		await names
			.filter({ hasText: new RegExp(`^${name}$`) })
			.first()
			.waitFor();
	}
	return (await names.allTextContents()).map((t) => t.trim());
}

describe('the n8n editor in Chromium', () => {
	it(
		'signs in',
		step('sign-in', async () => {
			await signIn(page, state);
			expect(new URL(page.url()).pathname).not.toMatch(/signin|setup/);
		}),
	);

	it(
		'finds every node of the package by name in the node panel',
		step('node-panel-search', async () => {
			// As a page (openInEditor: n8n's editor errs on a new workflow through its router).
			await page.goto(`${state.n8nUrl}/workflow/new`);
			await page.locator('[data-test-id="node-creator-plus-button"]').waitFor();
			await page.keyboard.press('Escape');
			await page.locator('[data-test-id="node-creator-plus-button"]').click();
			const search = page
				.locator('[data-test-id="node-creator-search-bar"]')
				.locator('visible=true');
			await search.first().waitFor();
			const nodes = builtNodeDescriptions();
			expect(nodes.length).toBeGreaterThan(0);
			for (const { displayName } of nodes) {
				await search.first().fill(displayName);
				const names = page.locator('[data-test-id="node-creator-item-name"]');
				await names.filter({ hasText: displayName }).first().waitFor();
				expect((await names.allTextContents()).map((t) => t.trim())).toContain(displayName);
			}
			await search.first().fill('Review Scraper');
			await page
				.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Review Scraper$/ })
				.waitFor();
			await shot('01-node-panel-search');
		}),
	);

	it(
		'shows every action of Review Scraper when it is picked in the node panel',
		step('node-panel-actions', async () => {
			await page
				.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Review Scraper$/ })
				.click();
			const declared = declaredOperations().flatMap((r) => r.operations.map((o) => o.action!));
			const names = page.locator(
				'[data-test-id="node-creator"] [data-test-id="node-creator-item-name"]',
			);
			await names.filter({ hasText: declared[0] }).first().waitFor();
			const shown = (await names.allTextContents()).map((t) => t.trim());
			expect(shown).toEqual(expect.arrayContaining(declared));
			await shot('02-node-panel-actions');
		}),
	);

	it(
		'adds the node to the canvas and opens it with its parameters rendered',
		step('open-node', async () => {
			const add = declaredOperations()
				.find((r) => r.resource === 'profile')!
				.operations.find((o) => o.value === 'add')!;
			await page
				.locator('[data-test-id="node-creator-item-name"]', { hasText: add.action! })
				.first()
				.click();
			const ndv = page.locator('[data-test-id="ndv"]');
			await ndv.waitFor();
			await page.keyboard.press('Escape');
			await ndv.waitFor({ state: 'hidden' });

			const node = page.locator('[data-test-id="canvas-node"]', { hasText: add.action! });
			await node.waitFor();
			await shot('03-canvas');
			await node.dblclick();
			await ndv.waitFor();

			await expect(parameterValue('resource')).resolves.toBe('Profile');
			await expect(parameterValue('operation')).resolves.toBe(add.name);
			const labels = (await page.locator('[data-test-id="ndv"] label').allTextContents()).map((t) =>
				t.trim(),
			);
			const expected = ['Credential', ...visibleParameters('profile', 'add')];
			expect(expected).toContain('Profile URL');
			const missing = expected.filter((label) => !labels.some((text) => text.startsWith(label)));
			expect(missing).toEqual([]);
			// Either "Connect to Review Scraper" (text) or an existing credential of the type (the
			// value of the credential input) is offered, depending on what earlier files created.
			const slot = page.locator('[data-test-id="node-credentials-slot"]');
			const offered = async () => {
				const values = await slot
					.locator('input')
					.evaluateAll((inputs) =>
						inputs.map((input) => (input as unknown as { value: string }).value),
					);
				return [await slot.innerText(), ...values].join(' ');
			};
			const deadline = Date.now() + 10_000;
			let text = await offered();
			while (!/Review Scraper/.test(text) && Date.now() < deadline) {
				await page.waitForTimeout(200);
				text = await offered();
			}
			expect(text).toMatch(/Review Scraper/);
			await shot('04-node-panel-profile-add');
		}),
	);

	it(
		'finds the right nodes when a newcomer searches by what they want, each with its own icon',
		step('node-search-terms', async () => {
			// As a page (openInEditor: n8n's editor errs on a new workflow through its router).
			await page.goto(`${state.n8nUrl}/workflow/new`);
			await page.locator('[data-test-id="node-creator-plus-button"]').waitFor();
			await page.keyboard.press('Escape');
			await page.locator('[data-test-id="node-creator-plus-button"]').click();
			const name = (type: string) => describedNode(type).displayName;
			const searches: Array<[string, string[]]> = [
				[
					'scrape',
					[
						'reviewScraper',
						'ecommerceSearch',
						'socialScraper',
						'scrapingScheduler',
						'scrapingCallbackTrigger',
						'scheduledScrapeTrigger',
					].map(name),
				],
				['scraping', ['reviewScraper', 'ecommerceSearch', 'socialScraper'].map(name)],
				['reviews', ['reviewScraper', 'scheduledScrapeTrigger'].map(name)],
				['products', [name('ecommerceSearch')]],
				['schedule', ['scrapingScheduler', 'scheduledScrapeTrigger'].map(name)],
				['hashtag', [name('socialScraper')]],
			];
			for (const [term, expected] of searches) {
				const shown = await searchNodePanel(term, expected);
				expect([term, shown]).toEqual([term, expect.arrayContaining(expected)]);
				await shot(`search-${term}`);
			}
			// Every node of the package is listed for "scrape": their icons must all differ.
			await searchNodePanel('scrape', searches[0][1]);
			const icons: string[] = [];
			for (const displayName of searches[0][1]) {
				const item = page
					.locator('[data-test-id="node-creator-item-name"]', {
						hasText: new RegExp(`^${displayName}$`),
					})
					.first()
					.locator('xpath=ancestor::*[.//img][1]');
				icons.push((await item.locator('img').first().getAttribute('src')) ?? '');
			}
			expect(icons.every((src) => /\.svg/.test(src))).toBe(true);
			expect(new Set(icons).size).toBe(icons.length);
			await page.keyboard.press('Escape');
		}),
	);

	it(
		'opens every operation of every node, one screenshot each, with no error and no Job ID of 0',
		step('every-operation', async () => {
			const opened: string[] = [];
			const entries = builtNodeDescriptions().flatMap((description) =>
				operationsOf(description).map(({ resource, operation, label }) => ({
					description,
					parameters: resource ? { resource, operation } : {},
					resource,
					label,
				})),
			);
			const open = await openCanvasOf('every operation', entries);
			for (const [index, { description, resource, label }] of entries.entries()) {
				const ndv = await open(index);
				const text = await ndv.innerText();
				expect(text).toContain(description.displayName);
				expect(text).not.toMatch(ERROR_TEXT);
				if (resource) await expect(parameterValue('operation')).resolves.toBeTruthy();
				const picker = ndv.locator(
					'[data-test-id="parameter-input-jobId"] [data-test-id="rlc-input"]',
				);
				const jobId = ndv.locator('[data-test-id="parameter-input-jobId"] input').first();
				if (await picker.count()) {
					// A list to pick from (Respond Job → Get from 1.3): nothing picked yet.
					await expect(picker.first().inputValue()).resolves.toBe('');
				} else if (await jobId.count()) {
					await expect(jobId.inputValue()).resolves.toBe('');
					await expect(jobId.getAttribute('placeholder')).resolves.toMatch(/^e\.g\. \d+$/);
				}
				// Wait for Completion sits right above the callback it replaces, which points at it.
				const toggleAt = text.indexOf('Wait for Completion');
				if (toggleAt >= 0) {
					const callbackAt = text.indexOf('Callback URL');
					expect(callbackAt).toBeGreaterThan(toggleAt);
					expect(text).toContain('Or turn on Wait for Completion above');
				}
				if (resource === 'videoRequest') {
					expect(text).toMatch(/cannot start a video request/);
					expect(text).toMatch(/comes from that submission's answer or its callback/);
				}
				const name = `op-${description.name}-${fileName(label)}`;
				await shot(name);
				opened.push(name);
				await page.keyboard.press('Escape');
			}
			expect(opened.length).toBeGreaterThanOrEqual(18);
			expect(browser.pageErrors).toEqual([]);
		}),
	);

	it(
		'keeps a Job ID saved as a number before it became a text field (version 1.2)',
		step('saved-job-id', async () => {
			const ndv = await openNode(
				describedNode('reviewScraper'),
				{ resource: 'respondJob', operation: 'get', jobId: 7001 },
				1.2,
			);
			await expect(
				ndv.locator('[data-test-id="parameter-input-jobId"] input').first().inputValue(),
			).resolves.toBe('7001');
			await page.keyboard.press('Escape');
		}),
	);

	it(
		"Respond Job → Get (1.3) lists the account's respond jobs to pick from; a saved text date shows in Reviews Since",
		step('respond-job-picker', async () => {
			const simulator = await startSimulator();
			try {
				const { client } = connect();
				const { reviewScraperApi } = await createSimulatorCredentials(
					client,
					simulator,
					'editor respond jobs',
				);
				const description = describedNode('reviewScraper');
				const ndv = await openNode(
					description,
					{ resource: 'respondJob', operation: 'get' },
					latestVersion(description),
					{ reviewScraperApi },
				);
				await ndv.locator('[data-test-id="rlc-input"]').first().click();
				const items = page.locator('[data-test-id="rlc-item"]:visible');
				await items.first().waitFor();
				const shown = await items.allInnerTexts();
				expect(shown.map((text) => text.trim().match(/^#(\d+)/)?.[1])).toEqual(
					simulator.state.respondJobs.map((job) => String(job.job_id)),
				);
				await shot('respond-job-from-list');
				await items.nth(1).click();
				await expect(
					ndv.locator('[data-test-id="rlc-input"]').first().inputValue(),
				).resolves.toContain(`#${simulator.state.respondJobs[1].job_id}`);
				await page.keyboard.press('Escape');

				const add = await openNode(description, {
					resource: 'profile',
					operation: 'add',
					url: 'https://www.example.com/biz/editor',
					additionalFields: { fromDate: '2026-01-31' },
				});
				await expect(
					add.locator('[data-test-id="parameter-input-fromDate"] input').first().inputValue(),
				).resolves.toContain('2026-01-31');
				await shot('reviews-since-date');
				await page.keyboard.press('Escape');
			} finally {
				await simulator.stop();
			}
		}),
	);

	it(
		'Callback Trigger: says how to get a test event, all kinds by default, no header secret offered',
		step('callback-trigger', async () => {
			const description = describedNode('scrapingCallbackTrigger');
			const ndv = await openNode(description, { requireSecret: true });
			const header = await ndv.locator('[data-test-id="trigger-header"]').innerText();
			expect(header).toBe("To test: use this node's Test URL as the Callback URL of an operation");
			const text = await ndv.innerText();
			expect(text).toContain(
				'Click the button, then run an operation by hand with the Test URL as its Callback URL',
			);
			expect(text).not.toMatch(/create an event/i);
			expect(text).toContain('Webhook URLs');
			expect(text).toContain('Secret');
			expect(text).not.toContain('Secret Location');
			const kinds = ndv.locator('[data-test-id="parameter-input-kinds"]').first();
			expect(text).toContain('Leave empty for all kinds');
			await kinds.click();
			// A multi-select's entries carry no test id, unlike a single select's.
			const items = page.locator('.el-select-dropdown__item:visible');
			await items.first().waitFor();
			const names = (await items.allTextContents()).map((t) => t.trim());
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
			expect(names.length).toBe(7);
			await page.keyboard.press('Escape');
			await shot('trigger-scrapingCallbackTrigger');
			await page.keyboard.press('Escape');

			// A workflow saved with the header secret still shows (and uses) it.
			const saved = await openNode(description, { requireSecret: true, secretLocation: 'header' });
			expect(await saved.innerText()).toContain('Secret Location');
			await shot('trigger-scrapingCallbackTrigger-saved-header-secret');
			await page.keyboard.press('Escape');
		}),
	);

	it(
		'Recurring Reviews Trigger: a test event comes only when the schedule runs; no URL box',
		step('scheduled-trigger', async () => {
			// n8n shows a trigger panel only for a node without issues: it needs its credential.
			const { client } = connect();
			const credential = await client.createCredential('editor check schedules', 'scrapingApi', {
				apiKey: 'editor-check-key',
				schedulingUrl: 'https://scheduling.example.com',
				requestsPerSecond: 10,
			});
			const description = describedNode('scheduledScrapeTrigger');
			const ndv = await openNode(description, {}, latestVersion(description), {
				scrapingApi: credential,
			});
			const header = await ndv.locator('[data-test-id="trigger-header"]').innerText();
			expect(header).toBe('A test event comes only when the schedule runs');
			const text = await ndv.innerText();
			expect(text).toContain('The service cannot run a schedule now');
			expect(text).toContain('Review Scraper → Profile → Add');
			expect(text).not.toContain('Webhook URLs');
			expect(text).not.toMatch(/create an event/i);
			await shot('trigger-scheduledScrapeTrigger');
			await page.keyboard.press('Escape');
		}),
	);

	it(
		"Scraping Scheduler → Create: the target API's own fields, raw parameters only on request",
		step('scheduler-create', async () => {
			const description = describedNode('scrapingScheduler');
			const ndv = await openNode(description, { resource: 'schedule', operation: 'create' });
			const text = await ndv.innerText();
			await expect(parameterValue('parametersInput')).resolves.toBe('Using API Fields');
			for (const label of ['Profile URL', 'Search Query', 'Place ID', 'Callback URL']) {
				expect(text).toContain(label);
			}
			expect(text).not.toContain('Query Parameters');
			expect(text).not.toContain('spiderman-token');
			await shot('scheduler-create-api-fields');
			await page.keyboard.press('Escape');

			// A workflow saved with version 1 keeps its raw form.
			const saved = await openNode(description, { resource: 'schedule', operation: 'create' }, 1);
			const savedText = await saved.innerText();
			expect(savedText).toContain('Query Parameters');
			expect(savedText).not.toContain('Profile URL');
			await expect(parameterValue('parametersInput')).resolves.toBe('Using Fields Below');
			await shot('scheduler-create-version-1');
			await page.keyboard.press('Escape');
		}),
	);

	it(
		'opens every template of examples/ on the canvas: each node shown, none with an issue (one screenshot each)',
		step('templates', async () => {
			const { client } = connect();
			const credentials = {
				reviewScraperApi: await client.createCredential(
					'editor templates Review Scraper API',
					'reviewScraperApi',
					{ apiToken: 'editor-check-token', baseUrl: 'https://reviews.example.com' },
				),
				scrapingApi: await client.createCredential('editor templates Scraping API', 'scrapingApi', {
					apiKey: 'editor-check-key',
					ecommerceUrl: 'https://ecommerce-search.example.com',
					photoScraperUrl: 'https://photo-scraper.example.com',
					requestsPerSecond: 10,
				}),
			};
			const examples = loadExamples();
			expect(examples.length).toBeGreaterThan(0);
			for (const { file, workflow } of examples) {
				const { id } = await client.createWorkflow(
					prepareExample(workflow, { credentials, n8nUrl: state.webhookUrl }),
				);
				await openInEditor(page, `${state.n8nUrl}/workflow/${id}`);
				const canvas = page.locator('[data-test-id="canvas"]');
				const nodes = workflow.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
				const withIssues: string[] = [];
				for (const node of nodes) {
					const shown = canvas
						.locator('[data-test-id="canvas-node"]', { hasText: node.name })
						.first();
					await shown.waitFor();
					if (await shown.locator('[data-test-id="node-issues"]').count()) {
						withIssues.push(node.name);
					}
				}
				await page.keyboard.press('Escape');
				// Only a node that needs the user's own account elsewhere may show an issue.
				const needOwnAccount = nodes.filter((n) => n.type in CREDENTIALS_OF_OTHERS);
				expect({ file, withIssues }).toEqual({
					file,
					withIssues: needOwnAccount.map((n) => n.name),
				});
				expect({ file, text: await canvas.innerText() }).toEqual({
					file,
					text: expect.not.stringMatching(ERROR_TEXT),
				});
				// The README's picture (docs/template-place-reviews.png) is this screenshot of
				// place-reviews-to-data-table.json.
				await page.screenshot({
					path: path.join(screenshots, `template-${file.replace(/\.json$/, '')}.png`),
					clip: await workflowArea(),
				});
			}
		}),
	);

	it(
		'opens both credentials; the Scraping API form says what each URL is for and warns while none is filled',
		step('credentials', async () => {
			const { client } = connect();
			for (const credential of builtCredentialTypes()) {
				const data =
					credential.name === 'scrapingApi'
						? { apiKey: 'editor-check-key', requestsPerSecond: 10 }
						: { apiToken: 'editor-check-token', baseUrl: 'https://reviews.example.com' };
				const { id } = await client.createCredential(
					`editor check ${credential.displayName}`,
					credential.name,
					data,
				);
				// n8n's editor route for one credential, as a page: its dialog opens when the page loads.
				await page.goto([state.n8nUrl, 'home', 'credentials', id].join('/'));
				const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
				await dialog.waitFor();
				await dialog
					.getByText(credential.properties.find((p) => p.type !== 'notice')!.displayName)
					.first()
					.waitFor();
				const text = await dialog.innerText();
				expect(text).not.toMatch(ERROR_TEXT);
				if (credential.name === 'scrapingApi') {
					expect(text).toContain('fill only the URLs of the APIs you use');
					expect(text).toContain('No API URL is filled yet');
					const urlFields = credential.properties.filter((p) => p.name.endsWith('Url'));
					const placeholders: string[] = [];
					for (const field of urlFields) {
						const input = dialog
							.locator(`[data-test-id="parameter-input-${field.name}"] input`)
							.first();
						placeholders.push((await input.getAttribute('placeholder')) ?? '');
					}
					expect(placeholders).toEqual(urlFields.map((f) => f.placeholder));
					expect(new Set(placeholders).size).toBe(urlFields.length);
					await shot(`credential-${credential.name}-empty`);
					await dialog
						.locator('[data-test-id="parameter-input-ecommerceUrl"] input')
						.first()
						.fill('https://ecommerce-search.example.com');
					await dialog.getByText('No API URL is filled yet').first().waitFor({ state: 'hidden' });
					await shot(`credential-${credential.name}-one-url`);
				} else {
					await shot(`credential-${credential.name}`);
				}
				await page.keyboard.press('Escape');
			}
		}),
	);
});
