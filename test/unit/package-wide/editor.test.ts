import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
} from 'n8n-workflow';

import { allProperties, packageNodes } from '../nodeClasses';

/** The fields the editor shows for these parameter values, in its order. */
const shown = (node: INodeType, typeVersion: number, values: INodeParameters) =>
	node.description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, { typeVersion }, node.description),
	);
const nodeIn = (folder: string) => packageNodes.find((each) => each.folder === folder)!.node;
const named = (node: INodeType, name: string) =>
	node.description.properties.find((property) => property.name === name)!;

describe('triggers', () => {
	const callback = nodeIn('ScrapingCallbackTrigger');

	/** A trigger's subtitle as n8n evaluates the expression, with `$parameter` given. */
	const subtitle = (folder: string, parameters: Record<string, unknown>): unknown => {
		const body = /^=\{\{([\s\S]*)\}\}$/.exec(String(nodeIn(folder).description.subtitle))![1];
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
		const hidden = (folder: string) =>
			nodeIn(folder).description.webhooks?.map((w) => w.ndvHideUrl);
		expect([hidden('ScheduledScrapeTrigger'), hidden('ScrapingCallbackTrigger')]).toEqual([
			[true],
			[undefined],
		]);
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
});

describe('Wait for Completion next to the callback it replaces', () => {
	it.each(
		(
			[
				['ReviewScraper', 'profile', 'add', 'callback'],
				['EcommerceSearch', 'product', 'search', 'callbackUrl'],
				['SocialScraper', 'photoPost', 'search', 'callbackUrl'],
				['SocialScraper', 'socialPost', 'scrape', 'callbackUrl'],
			] as const
		).map(([folder, ...row]) => [`${folder} ${row[1]}`, nodeIn(folder), ...row] as const),
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

	it.each(packageNodes.map(({ folder, node }) => [folder, node] as const))(
		'%s: notices that point at it stand only on operations that offer it',
		(_name, node) => {
			const operationsOf = (property: INodeProperties) =>
				(property.displayOptions?.show?.operation ?? []).map(String);
			const { properties } = node.description;
			const offering = properties
				.filter((p) => p.name === 'waitForCompletion')
				.flatMap(operationsOf);
			const pointing = properties
				.filter((p) => p.type === 'notice' && p.displayName.includes('Wait for Completion'))
				.flatMap((notice) => operationsOf(notice).map((operation) => [notice.name, operation]));
			expect(pointing.filter(([, operation]) => !offering.includes(operation))).toEqual([]);
		},
	);
});

it('E-Commerce Search: a flag added from the Filters list keeps only the products that have it', () => {
	const flags = allProperties([named(nodeIn('EcommerceSearch'), 'filters')]).filter(
		(property) => property.type === 'boolean',
	);
	expect(flags.map(({ displayName }) => displayName)).toEqual(
		expect.arrayContaining(['Bestseller', 'Prime', 'Sponsored', 'Overall Pick']),
	);
	expect(flags.filter((flag) => flag.default !== true)).toEqual([]);
});
