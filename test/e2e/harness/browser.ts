import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import type { SuiteState } from './state';

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

export interface Browser {
	context: BrowserContext;
	page: Page;
	/** Messages of the page's uncaught errors. */
	pageErrors: string[];
	close(): Promise<void>;
}

/** Headless Chromium with a profile of its own, at the size the editor's screenshots are taken. */
export async function launchBrowser(): Promise<Browser> {
	const profileDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'));
	const context = await chromium.launchPersistentContext(profileDir, {
		executablePath: chromiumPath(),
		headless: true,
		viewport: { width: 1440, height: 900 },
		// n8n's canvas animates (edges, spinners) on every frame otherwise: CPU the tests beside need.
		reducedMotion: 'reduce',
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
	// A page load parses n8n's editor bundle: on 2 busy CPUs the first took over 20 s.
	context.setDefaultNavigationTimeout(60_000);
	const page = context.pages()[0] ?? (await context.newPage());
	const pageErrors: string[] = [];
	page.on('pageerror', (error) => pageErrors.push(error.message));
	return {
		context,
		page,
		pageErrors,
		close: async () => {
			await context.close();
			rmSync(profileDir, { recursive: true, force: true });
		},
	};
}

/** Signs the owner in through n8n's sign-in form. */
export async function signIn(page: Page, state: SuiteState): Promise<void> {
	await page.goto(`${state.n8nUrl}/signin`);
	await page.fill('#emailOrLdapLoginId', state.owner.email);
	await page.fill('#password', state.owner.password);
	await page.click('[data-test-id="form-submit-button"]');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/**
 * Picks an option of an options parameter in the open node panel by its shown name, the whole
 * name: an option's description may hold another's name ("a profile job" under Listing Audit).
 */
export async function chooseOption(page: Page, parameter: string, name: string): Promise<void> {
	await page.locator(`[data-test-id="parameter-input-${parameter}"]`).click();
	const exactly = new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
	const items = page.locator('[data-test-id="parameter-input-item"]:visible');
	await items
		.filter({ has: page.locator('.option-headline', { hasText: exactly }) })
		.or(items.filter({ hasText: exactly }))
		.first()
		.click();
}
