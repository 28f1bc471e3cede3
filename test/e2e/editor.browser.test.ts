import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { builtNodeDescriptions, packageManifest } from './harness/fixtures';
import { artifactsDir } from './harness/paths';
import { connect, type SuiteState } from './harness/state';

const screenshots = path.join(artifactsDir, 'screenshots');

/** Debian's Chromium (apt package `chromium`), or CHROMIUM_PATH. */
function chromiumPath(): string {
	const candidates = process.env.CHROMIUM_PATH
		? [process.env.CHROMIUM_PATH]
		: (process.env.PATH ?? '')
				.split(path.delimiter)
				.flatMap((dir) => ['chromium', 'chromium-browser'].map((name) => path.join(dir, name)));
	for (const candidate of candidates) {
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {
			// next
		}
	}
	throw new Error('Chromium not found: install the Debian package "chromium" or set CHROMIUM_PATH');
}

let state: SuiteState;
let context: BrowserContext;
let page: Page;
let profileDir: string;
const pageErrors: string[] = [];

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
	profileDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'));
	context = await chromium.launchPersistentContext(profileDir, {
		executablePath: chromiumPath(),
		headless: true,
		viewport: { width: 1440, height: 900 },
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	context.setDefaultTimeout(20_000);
	page = context.pages()[0] ?? (await context.newPage());
	page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
	await context?.close();
	if (profileDir) rmSync(profileDir, { recursive: true, force: true });
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

async function dropdownOptions(parameter: string): Promise<string[]> {
	await page.locator(`[data-test-id="parameter-input-${parameter}"]`).click();
	const items = page.locator('[data-test-id="parameter-input-item"]:visible');
	await items.first().waitFor();
	const names = await items.evaluateAll((els) =>
		els.map((el) =>
			(el.querySelector('.option-headline')?.textContent ?? el.textContent ?? '').trim(),
		),
	);
	// n8n adds this entry itself to nodes whose credential the HTTP Request node can use.
	return names.filter((name) => name !== 'Custom API Call');
}

async function chooseOption(parameter: string, name: string): Promise<void> {
	await page.locator(`[data-test-id="parameter-input-${parameter}"]`).click();
	await page
		.locator('[data-test-id="parameter-input-item"]:visible', { hasText: name })
		.first()
		.click();
}

const parameterValue = (parameter: string) =>
	page.locator(`[data-test-id="parameter-input-${parameter}"] input`).first().inputValue();

describe('the n8n editor in Chromium', () => {
	it(
		'signs in',
		step('sign-in', async () => {
			await page.goto(`${state.n8nUrl}/signin`);
			await page.fill('#emailOrLdapLoginId', state.owner.email);
			await page.fill('#password', state.owner.password);
			await page.click('[data-test-id="form-submit-button"]');
			await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
			expect(new URL(page.url()).pathname).not.toMatch(/signin|setup/);
		}),
	);

	it(
		'finds every node of the package by name in the node panel',
		step('node-panel-search', async () => {
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
		'lists every resource and, for each, every operation; no error in the panel',
		step('resources-operations', async () => {
			const resources = declaredOperations();
			const shownResources = await dropdownOptions('resource');
			await page.keyboard.press('Escape');
			expect(shownResources).toEqual(resources.map((r) => r.resourceName));

			for (const { resourceName, operations } of resources) {
				await chooseOption('resource', resourceName);
				await expect(parameterValue('resource')).resolves.toBe(resourceName);
				const shownOperations = await dropdownOptions('operation');
				await page.keyboard.press('Escape');
				expect(shownOperations).toEqual(operations.map((o) => o.name));
			}
			await shot('05-node-panel-resources-operations');

			const ndvText = await page.locator('[data-test-id="ndv"]').innerText();
			expect(ndvText).not.toMatch(
				/not currently installed|install this node|problem loading|could not load/i,
			);
			expect(pageErrors).toEqual([]);
		}),
	);

	it(
		'opens every node of the package in its own panel without an error (one screenshot each)',
		step('every-node', async () => {
			const { client } = connect();
			const { name: packageName } = packageManifest();
			for (const description of builtNodeDescriptions()) {
				const { id } = await client.createWorkflow({
					name: `editor check: ${description.displayName}`,
					nodes: [
						{
							id: `editor-${description.name}`,
							name: description.displayName,
							type: `${packageName}.${description.name}`,
							typeVersion: 1,
							position: [0, 0],
							parameters: {},
							...(description.webhooks ? { webhookId: `editor-${description.name}-hook` } : {}),
						},
					],
					connections: {},
				});
				await page.goto(`${state.n8nUrl}/workflow/${id}`);
				const node = page.locator('[data-test-id="canvas-node"]').first();
				await node.waitFor();
				await page.keyboard.press('Escape');
				await node.dblclick();
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.waitFor();
				const firstParameter = description.properties.find((p) => p.type !== 'notice')!;
				await page
					.locator(`[data-test-id="ndv"] [data-test-id="parameter-input-${firstParameter.name}"]`)
					.first()
					.waitFor();
				const text = await ndv.innerText();
				expect(text).toContain(description.displayName);
				expect(text).not.toMatch(
					/not currently installed|install this node|problem loading|could not load/i,
				);
				await shot(`node-${description.name}`);
				await page.keyboard.press('Escape');
			}
			expect(pageErrors).toEqual([]);
		}),
	);
});
