import { packageNodes } from '../nodeClasses';

/**
 * A trigger's subtitle shows option names, as the editor's fields do, not the values saved in the
 * workflow. Evaluated here as n8n evaluates the expression, with `$parameter` given.
 */
function subtitleOf(folder: string, parameters: Record<string, unknown>): unknown {
	const { node } = packageNodes.find((each) => each.folder === folder)!;
	const expression = String(node.description.subtitle);
	const body = /^=\{\{([\s\S]*)\}\}$/.exec(expression)?.[1];
	if (body === undefined) throw new Error(`Not an expression: ${expression}`);
	return new Function('$parameter', `return (${body});`)(parameters);
}

describe('trigger subtitles', () => {
	it('Recurring Reviews Trigger: the frequency and what it collects, by name', () => {
		expect(
			subtitleOf('ScheduledScrapeTrigger', { frequency: 'daily', collect: 'profileList' }),
		).toBe('Daily: A List of Review Profiles');
	});

	it('Scraping Callback Trigger: the kind by name, a count for several, or all', () => {
		expect(subtitleOf('ScrapingCallbackTrigger', { kinds: ['reviewJob'] })).toBe('Review Job');
		expect(subtitleOf('ScrapingCallbackTrigger', { kinds: ['reviewJob', 'videoRequest'] })).toBe(
			'2 kinds',
		);
		expect(subtitleOf('ScrapingCallbackTrigger', { kinds: [] })).toBe('all callbacks');
	});
});
