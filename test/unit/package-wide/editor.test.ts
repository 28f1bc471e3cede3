import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type TriggerPanelDefinition,
} from 'n8n-workflow';

import { EcommerceSearch } from '../../../nodes/EcommerceSearch/EcommerceSearch.node';
import { ReviewScraper } from '../../../nodes/ReviewScraper/ReviewScraper.node';
import { ScheduledScrapeTrigger } from '../../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { ScrapingCallbackTrigger } from '../../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';
import { ScrapingScheduler } from '../../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { SocialScraper } from '../../../nodes/SocialScraper/SocialScraper.node';
import { PAYLOAD_KINDS } from '../../../nodes/shared/incoming/callbackPayload';
import { allProperties, packageNodes, repoRoot as root } from '../nodeClasses';

const nodes = packageNodes;

const codexOf = (folder: string) =>
	JSON.parse(readFileSync(join(root, 'nodes', folder, `${folder}.node.json`), 'utf8')) as {
		alias?: string[];
	};

/** What n8n's node panel matches a search against: the display name and the codex aliases. */
function found(term: string): string[] {
	const needle = term.toLowerCase();
	return nodes
		.filter(({ folder, node }) =>
			[node.description.displayName, ...(codexOf(folder).alias ?? [])].some((text) =>
				text.toLowerCase().includes(needle),
			),
		)
		.map(({ node }) => node.description.displayName)
		.sort();
}

describe('names and search', () => {
	it('keeps every node type name (saved workflows refer to them)', () => {
		expect(nodes.map(({ node }) => node.description.name)).toEqual([
			'reviewScraper',
			'ecommerceSearch',
			'socialScraper',
			'scrapingScheduler',
			'scrapingCallbackTrigger',
			'scheduledScrapeTrigger',
			'scrapingDelivery',
		]);
	});

	it('tells the schedule manager and the schedule trigger apart by name and description', () => {
		const scheduler = new ScrapingScheduler().description;
		const trigger = new ScheduledScrapeTrigger().description;
		expect(trigger.displayName).toBe('Recurring Reviews Trigger');
		expect(trigger.defaults.name).toBe(trigger.displayName);
		expect(scheduler.displayName).toBe('Scraping Scheduler');
		expect(scheduler.description).toContain('use the Recurring Reviews Trigger instead');
		expect(trigger.description).toMatch(/^Starts the workflow/);
	});

	it.each([
		[
			'scrape',
			[
				'E-Commerce Search',
				'Recurring Reviews Trigger',
				'Review Scraper',
				'Scraping Callback Trigger',
				'Scraping Scheduler',
				'Social Scraper',
			],
		],
		['scraping', expect.arrayContaining(['E-Commerce Search', 'Review Scraper', 'Social Scraper'])],
		['reviews', ['Recurring Reviews Trigger', 'Review Scraper']],
		['products', ['E-Commerce Search']],
		['schedule', ['Recurring Reviews Trigger', 'Scraping Scheduler']],
		['hashtag', ['Social Scraper']],
	])('a search for "%s" finds %j', (term, expected) => {
		expect(found(term)).toEqual(expected);
	});
});

const shownFor = (
	node: INodeType,
	property: INodeProperties,
	typeVersion: number,
	values: INodeParameters,
) => NodeHelpers.displayParameter(values, property, { typeVersion }, node.description);

describe('triggers that can be tested', () => {
	const callback = new ScrapingCallbackTrigger();
	const scheduled = new ScheduledScrapeTrigger();
	const panel = (node: INodeType) => node.description.triggerPanel as TriggerPanelDefinition;
	const texts = (value: string | { active: string; inactive: string } | undefined) =>
		typeof value === 'object' ? [value.inactive, value.active] : [value ?? ''];

	it('Callback Trigger: the test panel says to use the Test URL as the Callback URL of an operation run by hand', () => {
		const { header, executionsHelp, activationHint } = panel(callback);
		expect(header).toMatch(/Test URL as the Callback URL of an operation/);
		const [helpInactive, helpActive] = texts(executionsHelp);
		expect(helpInactive).toMatch(/Test URL.*Callback URL.*run by hand/);
		expect(helpInactive).toMatch(/Production URL.*publish/);
		expect(helpInactive).toMatch(/Review Scraper → Profile → Add/);
		expect(helpActive).toMatch(/Production URL/);
		for (const hint of texts(activationHint)) expect(hint).toMatch(/Test URL|Production URL/);
		expect(JSON.stringify(panel(callback))).not.toMatch(/create an event/i);
	});

	it('Recurring Reviews Trigger: a test event comes only when the schedule runs, and how to get one now', () => {
		const { header, executionsHelp, activationHint } = panel(scheduled);
		expect(header).toBe('A test event comes only when the schedule runs');
		for (const help of [...texts(executionsHelp), ...texts(activationHint).slice(0, 1)]) {
			expect(help).toMatch(/cannot run (one|a schedule) (now|on demand)/);
			expect(help).toMatch(/Review Scraper → Profile → Add/);
		}
	});

	it('hides the webhook URL box only where there is nothing to paste', () => {
		expect(scheduled.description.webhooks?.map((w) => w.ndvHideUrl)).toEqual([true]);
		expect(callback.description.webhooks?.map((w) => w.ndvHideUrl)).toEqual([undefined]);
	});

	it('Callback Trigger offers no header secret to a newcomer; a saved header secret still shows', () => {
		// Version 1 stays: n8n skips body parsing (Receive Large Deliveries) for version 1 only.
		expect(callback.description.version).toBe(1);
		expect(scheduled.description.version).toBe(1);
		const location = callback.description.properties.find((p) => p.name === 'secretLocation')!;
		expect(shownFor(callback, location, 1, { requireSecret: true })).toBe(false);
		expect(shownFor(callback, location, 1, { requireSecret: true, secretLocation: 'query' })).toBe(
			false,
		);
		expect(shownFor(callback, location, 1, { requireSecret: true, secretLocation: 'header' })).toBe(
			true,
		);
		expect((location.options as INodePropertyOptions[]).map((o) => o.value)).toEqual([
			'query',
			'header',
		]);
		const secret = callback.description.properties.find((p) => p.name === 'secret')!;
		expect(shownFor(callback, secret, 1, { requireSecret: true })).toBe(true);
		expect(secret.description).toMatch(/\?secret=/);
	});
});

describe('smaller points of a first hour', () => {
	const all = nodes.map(({ node }) => ({
		node,
		properties: allProperties(node.description.properties),
	}));

	it('sorts the options of every collection by display name', () => {
		for (const { node, properties } of all) {
			for (const collection of properties.filter((p) => p.type === 'collection')) {
				const names = (collection.options as INodeProperties[]).map((o) => o.displayName);
				expect([node.description.name, collection.name, names]).toEqual([
					node.description.name,
					collection.name,
					[...names].sort((a, b) => a.localeCompare(b)),
				]);
			}
		}
	});

	it('lists the Callback Kinds alphabetically, same values, and says that empty means all kinds', () => {
		const kinds = new ScrapingCallbackTrigger().description.properties.find(
			(p) => p.name === 'kinds',
		)!;
		const options = kinds.options as INodePropertyOptions[];
		const names = options.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(options.map((o) => o.value).sort()).toEqual(
			PAYLOAD_KINDS.map(({ value }) => value).sort(),
		);
		expect(kinds.default).toEqual([]);
		expect(kinds.hint).toBe('Leave empty for all kinds');
	});

	it('starts no Job ID, and no other required number, at 0', () => {
		const jobIds = all.flatMap(({ properties }) => properties).filter((p) => p.name === 'jobId');
		// Respond Job ID (to 1.2), Respond Job (a list from 1.3), Profile Job ID.
		expect(jobIds.map((p) => p.type).sort()).toEqual(['resourceLocator', 'string', 'string']);
		for (const jobId of jobIds) {
			if (jobId.type === 'resourceLocator') {
				expect(jobId).toMatchObject({ default: { mode: 'list', value: '' }, required: true });
				const byId = jobId.modes?.find((mode) => mode.name === 'id');
				expect(byId?.placeholder).toMatch(/^e\.g\. \d+$/);
				continue;
			}
			expect(jobId).toMatchObject({ type: 'string', default: '', required: true });
			expect(jobId.placeholder).toMatch(/^e\.g\. \d+$/);
		}
		for (const { node, properties } of all) {
			for (const p of properties.filter((p) => p.type === 'number' && p.required)) {
				expect([node.description.name, p.name, p.default]).not.toEqual([
					node.description.name,
					p.name,
					0,
				]);
			}
		}
	});

	it('Video Request says where its request ID comes from', () => {
		const properties = new SocialScraper().description.properties.filter((p) =>
			p.displayOptions?.show?.resource?.includes('videoRequest'),
		);
		const notice = properties.find((p) => p.type === 'notice' && p.name === 'requestIdNotice')!;
		expect(notice.displayName).toMatch(/cannot start a video request/);
		expect(notice.displayName).toMatch(/comes from that submission's answer or its callback/);
		expect(notice.displayName).toMatch(/Scraping Callback Trigger/);
		// One notice, of at most two sentences.
		expect(properties.filter((p) => p.type === 'notice')).toHaveLength(1);
		expect(
			notice.displayName.split(/[.!?](\s|$)/).filter((s) => s.trim()).length,
		).toBeLessThanOrEqual(2);
		const requestId = properties.find((p) => p.name === 'requestId')!;
		expect(requestId.description).toMatch(/submitted outside n8n/);
	});

	it('describes Return All by what the operation returns without it', () => {
		const photoResults = new SocialScraper().description.properties.find(
			(p) => p.name === 'returnAll' && p.displayOptions?.show?.operation?.includes('getResults'),
		)!;
		expect(photoResults.description).toMatch(/only the page chosen below/);
		for (const node of [new ReviewScraper(), new ScrapingScheduler()]) {
			const returnAll = node.description.properties.find((p) => p.name === 'returnAll')!;
			expect(returnAll.description).toMatch(/only up to a given limit/);
		}
	});
});

describe('Wait for Completion next to the callback it replaces', () => {
	const waiting: Array<{ node: INodeType; resource: string; operation: string; callback: string }> =
		[
			{ node: new ReviewScraper(), resource: 'profile', operation: 'add', callback: 'callback' },
			{
				node: new EcommerceSearch(),
				resource: 'product',
				operation: 'search',
				callback: 'callbackUrl',
			},
			{
				node: new SocialScraper(),
				resource: 'photoPost',
				operation: 'search',
				callback: 'callbackUrl',
			},
			{
				node: new SocialScraper(),
				resource: 'socialPost',
				operation: 'scrape',
				callback: 'callbackUrl',
			},
		];

	it.each(waiting.map((w) => [`${w.node.description.displayName} ${w.operation}`, w] as const))(
		'%s: the toggle just above the callback field, which hints at it and hides while waiting',
		(_name, { node, resource, operation, callback }) => {
			const values = { resource, operation };
			const shown = (extra: INodeParameters) =>
				node.description.properties
					.filter((p) =>
						NodeHelpers.displayParameter(
							{ ...values, ...extra },
							p,
							{ typeVersion: 1.1 },
							node.description,
						),
					)
					.map((p) => p);
			const off = shown({ waitForCompletion: false }).map((p) => p.name);
			expect(off.indexOf(callback) - off.indexOf('waitForCompletion')).toBe(1);
			const field = shown({}).find((p) => p.name === callback)!;
			expect(field.hint).toMatch(/Wait for Completion above/);

			const on = shown({ waitForCompletion: true });
			const names = on.map((p) => p.name);
			expect(names).not.toContain(callback);
			const at = names.indexOf('waitForCompletion');
			expect(names.slice(at, at + 3)).toEqual(['waitForCompletion', 'waitNotice', 'waitTimeLimit']);
			// From version 1.2 the time limit is an amount and a unit (2 days by default).
			const latest = node.description.properties
				.filter((p) =>
					NodeHelpers.displayParameter(
						{ ...values, waitForCompletion: true },
						p,
						{ typeVersion: 1.2 },
						node.description,
					),
				)
				.map((p) => p.name);
			const from = latest.indexOf('waitForCompletion');
			expect(latest.slice(from, from + 4)).toEqual([
				'waitForCompletion',
				'waitNotice',
				'waitTimeLimitAmount',
				'waitTimeLimitUnit',
			]);
			const notice = on[at + 1].displayName;
			expect(notice.length).toBeLessThanOrEqual(320);
			expect(notice).toMatch(/one item/);
			expect(notice).toMatch(/Split Out/);
			expect(notice).toMatch(/body limit/);
			expect(notice).toMatch(/WEBHOOK_URL/);
		},
	);
});

describe('notices that point at Wait for Completion', () => {
	const shownOn = (property: INodeProperties) =>
		(property.displayOptions?.show?.operation ?? []).map(String);

	it.each([
		new ReviewScraper(),
		new EcommerceSearch(),
		new SocialScraper(),
		new ScrapingScheduler(),
	])('%s: only on operations that offer it', (node) => {
		const { properties } = node.description;
		const offering = new Set(
			properties.filter((p) => p.name === 'waitForCompletion').flatMap(shownOn),
		);
		const pointing = properties.filter(
			(p) => p.type === 'notice' && p.displayName.includes('Wait for Completion'),
		);
		for (const notice of pointing) {
			for (const operation of shownOn(notice))
				expect([notice.name, operation, offering.has(operation)]).toEqual([
					notice.name,
					operation,
					true,
				]);
		}
	});
});

describe('notices, read as a user reads them', () => {
	it('are one or two sentences each', () => {
		const long = packageNodes.flatMap(({ node }) =>
			allProperties(node.description.properties)
				.filter((property) => property.type === 'notice')
				.map((property) => ({
					node: node.description.displayName,
					name: property.name,
					sentences: property.displayName
						.replace(/\b(e\.g|i\.e)\./g, '$1')
						.split(/[.!?](?:\s|$)/)
						.filter((sentence) => sentence.trim()).length,
				}))
				.filter(({ sentences }) => sentences > 2),
		);
		expect(long).toEqual([]);
	});

	it("name none of the service's or n8n's internal identifiers", () => {
		const texts = packageNodes.flatMap(({ node }) =>
			allProperties(node.description.properties).flatMap((property) => [
				property.displayName,
				property.description ?? '',
			]),
		);
		for (const internal of ['rsapi', 'riapi', 'spiderman-token', 'N8N_PAYLOAD_SIZE_MAX']) {
			expect(texts.filter((text) => text.includes(internal))).toEqual([]);
		}
	});
});

describe('E-Commerce Search filters, as a user adds them', () => {
	it('a flag added from the Filters list keeps only the products that have it', () => {
		const filters = new EcommerceSearch().description.properties.find(
			(property) => property.name === 'filters',
		)!;
		const flags = allProperties([filters]).filter((property) => property.type === 'boolean');
		expect(flags.map(({ displayName }) => displayName)).toEqual(
			expect.arrayContaining(['Bestseller', 'Prime', 'Sponsored', 'Overall Pick']),
		);
		for (const flag of flags) {
			expect({ flag: flag.displayName, default: flag.default }).toEqual({
				flag: flag.displayName,
				default: true,
			});
			expect(flag.description).toMatch(/only .+ \(on\)/);
		}
	});
});
