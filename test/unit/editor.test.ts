import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { EcommerceSearch } from '../../nodes/EcommerceSearch/EcommerceSearch.node';
import { ReviewScraper } from '../../nodes/ReviewScraper/ReviewScraper.node';
import { ScheduledScrapeTrigger } from '../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { ScrapingCallbackTrigger } from '../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';
import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { SocialScraper } from '../../nodes/SocialScraper/SocialScraper.node';

const root = resolve(__dirname, '..', '..');

const nodes: Array<{ folder: string; node: INodeType }> = [
	{ folder: 'ReviewScraper', node: new ReviewScraper() },
	{ folder: 'EcommerceSearch', node: new EcommerceSearch() },
	{ folder: 'SocialScraper', node: new SocialScraper() },
	{ folder: 'ScrapingScheduler', node: new ScrapingScheduler() },
	{ folder: 'ScrapingCallbackTrigger', node: new ScrapingCallbackTrigger() },
	{ folder: 'ScheduledScrapeTrigger', node: new ScheduledScrapeTrigger() },
];

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
