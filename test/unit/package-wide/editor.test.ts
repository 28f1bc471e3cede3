import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
} from 'n8n-workflow';

import { EcommerceSearch } from '../../../nodes/EcommerceSearch/EcommerceSearch.node';
import { ReviewScraper } from '../../../nodes/ReviewScraper/ReviewScraper.node';
import { ScheduledScrapeTrigger } from '../../../nodes/ScheduledScrapeTrigger/ScheduledScrapeTrigger.node';
import { ScrapingCallbackTrigger } from '../../../nodes/ScrapingCallbackTrigger/ScrapingCallbackTrigger.node';
import { ScrapingScheduler } from '../../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { SocialScraper } from '../../../nodes/SocialScraper/SocialScraper.node';
import { PAYLOAD_KINDS } from '../../../nodes/shared/incoming/callbackPayload';
import { allProperties, packageNodes } from '../nodeClasses';

/** The fields the editor shows for these parameter values, in its order. */
const shown = (node: INodeType, typeVersion: number, values: INodeParameters) =>
	node.description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, { typeVersion }, node.description),
	);
const named = (node: INodeType, name: string) =>
	node.description.properties.find((property) => property.name === name)!;

describe('triggers', () => {
	const callback = new ScrapingCallbackTrigger();

	/** A trigger's subtitle as n8n evaluates the expression, with `$parameter` given. */
	const subtitle = (folder: string, parameters: Record<string, unknown>): unknown => {
		const { node } = packageNodes.find((each) => each.folder === folder)!;
		const body = /^=\{\{([\s\S]*)\}\}$/.exec(String(node.description.subtitle))![1];
		return new Function('$parameter', `return (${body});`)(parameters);
	};

	it('show option names in their subtitles, not the values saved in the workflow', () => {
		const scheduled = { frequency: 'daily', collect: 'profileList' };
		expect(subtitle('ScheduledScrapeTrigger', scheduled)).toBe('Daily: A List of Review Profiles');
		expect(
			[['reviewJob'], ['reviewJob', 'videoRequest'], []].map((kinds) =>
				subtitle('ScrapingCallbackTrigger', { kinds }),
			),
		).toEqual(['Review Job', '2 kinds', 'all callbacks']);
	});

	it('hide the webhook URL box only where there is nothing to paste', () => {
		expect(new ScheduledScrapeTrigger().description.webhooks?.map((w) => w.ndvHideUrl)).toEqual([
			true,
		]);
		expect(callback.description.webhooks?.map((w) => w.ndvHideUrl)).toEqual([undefined]);
	});

	it('Callback Trigger offers no header secret to a newcomer; a saved header secret still shows', () => {
		const location = named(callback, 'secretLocation');
		const locationShown = (values: INodeParameters) =>
			shown(callback, 1, { requireSecret: true, ...values }).includes(location);
		expect(
			[{}, { secretLocation: 'query' }, { secretLocation: 'header' }].map(locationShown),
		).toEqual([false, false, true]);
		expect(shown(callback, 1, { requireSecret: true })).toContain(named(callback, 'secret'));
	});

	it('Callback Trigger: its Callback Kinds are those it recognises, sorted, none meaning all', () => {
		const kinds = named(callback, 'kinds');
		const options = kinds.options as INodePropertyOptions[];
		expect(options.map((o) => o.value).sort()).toEqual(PAYLOAD_KINDS.map((k) => k.value).sort());
		expect(kinds.default).toEqual([]);
	});
});

describe('Wait for Completion next to the callback it replaces', () => {
	it.each(
		(
			[
				[new ReviewScraper(), 'profile', 'add', 'callback'],
				[new EcommerceSearch(), 'product', 'search', 'callbackUrl'],
				[new SocialScraper(), 'photoPost', 'search', 'callbackUrl'],
				[new SocialScraper(), 'socialPost', 'scrape', 'callbackUrl'],
			] as const
		).map((row) => [`${row[0].description.displayName} ${row[2]}`, ...row] as const),
	)(
		'%s: the toggle just above the callback field, which hides while waiting',
		(_name, node, resource, operation, callback) => {
			const names = (typeVersion: number, waitForCompletion?: boolean) =>
				shown(node, typeVersion, { resource, operation, waitForCompletion }).map((p) => p.name);
			const off = names(1.1, false);
			expect(off.indexOf(callback) - off.indexOf('waitForCompletion')).toBe(1);
			const on = names(1.1, true);
			expect(on).not.toContain(callback);
			const fromToggle = (list: string[], count: number) =>
				list.slice(list.indexOf('waitForCompletion'), list.indexOf('waitForCompletion') + count);
			expect(fromToggle(on, 3)).toEqual(['waitForCompletion', 'waitNotice', 'waitTimeLimit']);
			// From version 1.2 the time limit is an amount and a unit.
			expect(fromToggle(names(1.2, true), 4)).toEqual([
				'waitForCompletion',
				'waitNotice',
				'waitTimeLimitAmount',
				'waitTimeLimitUnit',
			]);
		},
	);

	it.each(
		[new ReviewScraper(), new EcommerceSearch(), new SocialScraper(), new ScrapingScheduler()].map(
			(node) => [node.description.displayName, node] as const,
		),
	)('%s: notices that point at it stand only on operations that offer it', (_name, node) => {
		const operationsOf = (property: INodeProperties) =>
			(property.displayOptions?.show?.operation ?? []).map(String);
		const { properties } = node.description;
		const offering = properties.filter((p) => p.name === 'waitForCompletion').flatMap(operationsOf);
		const pointing = properties
			.filter((p) => p.type === 'notice' && p.displayName.includes('Wait for Completion'))
			.flatMap((notice) => operationsOf(notice).map((operation) => [notice.name, operation]));
		expect(pointing.filter(([, operation]) => !offering.includes(operation))).toEqual([]);
	});
});

it('E-Commerce Search: a flag added from the Filters list keeps only the products that have it', () => {
	const flags = allProperties([named(new EcommerceSearch(), 'filters')]).filter(
		(property) => property.type === 'boolean',
	);
	expect(flags.map(({ displayName }) => displayName)).toEqual(
		expect.arrayContaining(['Bestseller', 'Prime', 'Sponsored', 'Overall Pick']),
	);
	expect(flags.filter((flag) => flag.default !== true)).toEqual([]);
});
