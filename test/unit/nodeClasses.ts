import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';

import { EcommerceSearch } from '../../nodes/EcommerceSearch/EcommerceSearch.node';
import { ReviewScraper } from '../../nodes/ReviewScraper/ReviewScraper.node';
import { ScheduledScrapeTrigger } from '../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { ScrapingCallbackTrigger } from '../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';
import { ScrapingDelivery } from '../../nodes/ScrapingDelivery/ScrapingDelivery.node';
import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { SocialScraper } from '../../nodes/SocialScraper/SocialScraper.node';

export const repoRoot = resolve(__dirname, '..', '..');

/** The files git tracks under these paths (the whole tree when none is given), as full paths. */
export const trackedFiles = (...paths: string[]): string[] =>
	execFileSync('git', ['ls-files', '-z', '--', ...paths], { cwd: repoRoot, encoding: 'utf8' })
		.split('\0')
		.filter(Boolean)
		.map((file) => join(repoRoot, file));

/** Every node of the package, with the folder its class, codex and icons are named after. */
export const packageNodes: Array<{ folder: string; node: INodeType }> = [
	{ folder: 'ReviewScraper', node: new ReviewScraper() },
	{ folder: 'EcommerceSearch', node: new EcommerceSearch() },
	{ folder: 'SocialScraper', node: new SocialScraper() },
	{ folder: 'ScrapingScheduler', node: new ScrapingScheduler() },
	{ folder: 'ScrapingCallbackTrigger', node: new ScrapingCallbackTrigger() },
	{ folder: 'ScheduledScrapeTrigger', node: new ScheduledScrapeTrigger() },
	{ folder: 'ScrapingDelivery', node: new ScrapingDelivery() },
];

/** Every property of a description, those inside collections and fixed collections included. */
export function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) => {
			if ('values' in option) return allProperties(option.values);
			if ('type' in option) return allProperties([option as INodeProperties]);
			return [];
		});
		return [property, ...nested];
	});
}
