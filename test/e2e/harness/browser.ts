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

/**
 * A page of the editor without a canvas, passed through between two routes (see openInEditor); n8n
 * 2.41's router refuses /settings/personal from the workflow list.
 */
const ROUTE_BETWEEN = '/home/credentials';

interface EditorRouter {
	push(to: string): Promise<unknown>;
	currentRoute: { value: { fullPath: string } };
}

/**
 * The loaded editor's route, after asking its router for `to` when given; '' when no editor of
 * this origin is loaded.
 */
async function editorRoute(page: Page, origin: string, to?: string): Promise<string> {
	if (!page.url().startsWith(origin)) return '';
	return page.evaluate((asked) => {
		type Root = { __vue_app__?: { config: { globalProperties: { $router?: EditorRouter } } } };
		// Runs in the page: its document, which this project's TypeScript settings (no DOM) lack.
		const { document } = globalThis as unknown as {
			document: { querySelector(selector: string): Root | null };
		};
		const router = document.querySelector('#app')?.__vue_app__?.config.globalProperties.$router;
		if (router && asked) void router.push(asked);
		return router?.currentRoute.value.fullPath ?? '';
	}, to);
}

/**
 * Opens a route of n8n's editor. Once the editor is loaded, through its own router, as its links
 * do, not by a new page load: each load parses the editor's bundle again, about 15 CPU-seconds of
 * Chromium on these machines, which the tests beside it need. It passes through a page without a
 * canvas first, so that what the caller waits for next is the new page's, not the old one's;
 * answers "Save changes before leaving?" as a user leaving a changed workflow: without saving.
 */
export async function openInEditor(page: Page, url: string): Promise<void> {
	const target = new URL(url);
	const current = await editorRoute(page, target.origin).catch(() => '');
	// A new workflow not saved yet is left as a page: through the router n8n 2.41's editor logs an
	// error of its own about it (injectNDVStore() without a workflow document).
	if (!current || current.startsWith('/signin') || /[?&]new=true/.test(current)) {
		await page.goto(url);
		return;
	}
	const leave = page.getByRole('button', { name: 'Leave without saving' });
	for (const route of [ROUTE_BETWEEN, `${target.pathname}${target.search}`]) {
		if ((await editorRoute(page, target.origin)) === route) continue;
		const left = await editorRoute(page, target.origin, route);
		// Any route other than the one it left is the one asked for (the router may rewrite it); one
		// the router refuses loads as a page instead.
		const deadline = Date.now() + 15_000;
		while ((await editorRoute(page, target.origin)) === left) {
			if (Date.now() > deadline) {
				await page.goto(url);
				return;
			}
			if (await leave.isVisible()) await leave.click();
			await page.waitForTimeout(100);
		}
		if (route === ROUTE_BETWEEN) {
			await page.locator('[data-test-id="canvas"]').waitFor({ state: 'detached' });
		}
	}
}

/** Signs the owner in through n8n's sign-in form. */
export async function signIn(
	page: Page,
	state: Pick<SuiteState, 'n8nUrl'> & { owner: Pick<SuiteState['owner'], 'email' | 'password'> },
): Promise<void> {
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
