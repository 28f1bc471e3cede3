import { mkdirSync } from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { chooseOption, launchBrowser, signIn, type Browser } from './harness/browser';
import { packageManifest } from './harness/fixtures';
import { artifactsDir, repoRoot } from './harness/paths';
import { actionNodes, newestVersion } from '../settings/matrix';
import { useE2e } from './harness/suite';

/**
 * The README's "Your first result in five minutes", walked in the editor step by step, one
 * screenshot per step: the README's pictures of the path in docs/first-result/, written with
 * UPDATE_FIRST_RESULT_PICTURES=1. The service is
 * the simulator; its credentials are made as step 1's dialog would make them.
 */
// Into docs/ only when asked: every run's pictures differ (dates, IDs), and a test run should leave
// the tree clean.
const pictures =
	process.env.UPDATE_FIRST_RESULT_PICTURES === '1'
		? path.join(repoRoot, 'docs', 'first-result')
		: path.join(artifactsDir, 'first-result');
const { name: packageName } = packageManifest();

const { state, client, credentials } = useE2e({
	credentials: 'first result',
	resetEachTest: false,
});
let browser: Browser;
let page: Page;
let workflowId: string;

const picture = (name: string) => page.screenshot({ path: path.join(pictures, `${name}.png`) });
const ndv = () => page.locator('[data-test-id="ndv"]');

async function openNode(name: string): Promise<void> {
	if (await ndv().isVisible()) await page.keyboard.press('Escape');
	await page.locator('[data-test-id="canvas-node"]', { hasText: name }).first().dblclick();
	await ndv().waitFor();
}

async function lastExecutionId(id: string): Promise<number> {
	const { data } = await client.api<{ data: Array<{ id: string }> }>(
		'GET',
		`/executions?workflowId=${id}&limit=1`,
	);
	return Number(data[0]?.id ?? 0);
}

/** The first execution of the workflow after `after` that ended with `status`. */
async function executionAfter(id: string, after: number, status: string) {
	for (const started = Date.now(); Date.now() - started < 60_000;) {
		const { data } = await client.api<{ data: Array<{ id: string; status: string }> }>(
			'GET',
			`/executions?workflowId=${id}&limit=5`,
		);
		const found = data.find((e) => Number(e.id) > after && e.status === status);
		if (found) return found;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`No ${status} execution of workflow ${id} within 60 s`);
}

beforeAll(async () => {
	mkdirSync(pictures, { recursive: true });
	browser = await launchBrowser();
	page = browser.page;
	await signIn(page, state);
	({ id: workflowId } = await client.createWorkflow({
		name: 'My first result',
		nodes: [
			{
				id: 'manual',
				name: "When clicking 'Execute workflow'",
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'review-scraper',
				name: 'Review Scraper',
				type: `${packageName}.reviewScraper`,
				// What a newcomer adding the node today gets.
				typeVersion: newestVersion(actionNodes.reviewScraper),
				position: [240, 0],
				parameters: {},
				credentials: { reviewScraperApi: credentials.reviewScraperApi },
			},
		],
		connections: {
			"When clicking 'Execute workflow'": {
				main: [[{ node: 'Review Scraper', type: 'main', index: 0 }]],
			},
		},
	}));
});

afterAll(async () => {
	await browser?.close();
});

describe('your first result in five minutes, in the editor', () => {
	it('1. a read that needs no callback: Respond Job → Get Many', async () => {
		await page.goto(`${state.n8nUrl}/workflow/${workflowId}`);
		await openNode('Review Scraper');
		await chooseOption(page, 'resource', 'Respond Job');
		await chooseOption(page, 'operation', 'Get Many');
		await ndv().locator('[data-test-id="node-execute-button"]').first().click();
		await ndv()
			.getByText(/^\d+ items?$/)
			.first()
			.waitFor({ timeout: 60_000 });
		await picture('1-respond-jobs');
		expect(await ndv().innerText()).toMatch(/job_id/);
	});

	it('2. Profile → Add with Wait for Completion: the execution waits, then gets the reviews', async () => {
		await chooseOption(page, 'resource', 'Profile');
		await chooseOption(page, 'operation', 'Add');
		await ndv()
			.locator('[data-test-id="parameter-input-url"] input')
			.first()
			.fill('https://reviews.example.com/biz/first-result');
		await ndv().locator('[data-test-id="parameter-input-waitForCompletion"]').first().click();
		// The node fills the callback itself while waiting: the field goes.
		await ndv().locator('[data-test-id="parameter-input-callback"]').waitFor({ state: 'detached' });
		await picture('2-add-wait-for-completion');
		const before = await lastExecutionId(workflowId);
		await page.keyboard.press('Escape');
		await ndv().waitFor({ state: 'hidden' });
		// The canvas's selection pane lies over the button after the panel closes: the click goes
		// to the button itself.
		await page.locator('[data-test-id^="execute-workflow-button"]').first().dispatchEvent('click');
		const execution = await executionAfter(workflowId, before, 'success');
		// The editor that started the run shows its result once the delivery resumed it.
		await openNode('Review Scraper');
		await ndv().getByText('wait_status').first().waitFor({ timeout: 60_000 });
		// The output as JSON: the item's wait_status and outcome first.
		await ndv().getByText('JSON', { exact: true }).last().click();
		await ndv().getByText('"wait_status"').first().waitFor();
		await picture('2-add-resumed');
		const run = await client.getExecution(execution.id);
		expect(JSON.stringify(run)).toMatch(/"wait_status":"completed"/);
	});

	it('3. the Scraping Callback Trigger receives the job of an operation given its URL', async () => {
		const trigger = await client.createWorkflow({
			name: 'Reviews as they come',
			nodes: [
				{
					id: 'callback-trigger',
					name: 'Scraping Callback Trigger',
					type: `${packageName}.scrapingCallbackTrigger`,
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
					webhookId: 'first-result-reviews',
				},
			],
			connections: {},
		});
		await client.activate(trigger.id);
		const beforeDelivery = await lastExecutionId(trigger.id);
		await page.goto(`${state.n8nUrl}/workflow/${trigger.id}`);
		await openNode('Scraping Callback Trigger');
		await picture('3-callback-trigger');
		const productionUrl = `${state.webhookUrl}/webhook/first-result-reviews/callback`;

		await page.goto(`${state.n8nUrl}/workflow/${workflowId}`);
		await openNode('Review Scraper');
		await ndv().locator('[data-test-id="parameter-input-waitForCompletion"]').first().click();
		await ndv()
			.locator('[data-test-id="parameter-input-callback"] input')
			.first()
			.fill(productionUrl);
		await ndv().locator('[data-test-id="node-execute-button"]').first().click();
		await ndv()
			.getByText(/^\d+ items?$/)
			.first()
			.waitFor({ timeout: 60_000 });
		await picture('3-add-acknowledged');
		const delivered = await executionAfter(trigger.id, beforeDelivery, 'success');
		await page.goto(`${state.n8nUrl}/workflow/${trigger.id}/executions/${delivered.id}`);
		// The trigger's output in the execution: what the workflow got.
		await page.locator('[data-test-id="canvas-node"]').first().dblclick();
		await ndv().getByText('reviewJob').first().waitFor({ timeout: 30_000 });
		await picture('3-delivery');
		const run = await client.getExecution(delivered.id);
		expect(JSON.stringify(run)).toMatch(/"kind":"reviewJob"/);
		await client.deactivate(trigger.id);
	});
});
