import { buildScrapeBody } from '../../../../../nodes/SocialScraper/actions/socialPost/scrape.operation';
import { FieldReader } from '../../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../../helpers';

// The bodies sent and the other refusals run through the engine
// (test/engine/SocialScraper/socialPost/scrape*.workflow.json); only an expression can make Get Comments something other than a boolean.
it.each([
	[{ getComments: 'yes' }, 'Get Comments must be true or false, got "yes"'],
	[{ callbackUrl: undefined }, 'Callback URL is required: the service delivers the post to it'],
])('the social scrape body refuses %j', (input, message) => {
	const valid = { url: 'https://social.example.com/p/1', callbackUrl: 'https://n8n.example.com/h' };
	expect(() => buildScrapeBody(new FieldReader(testNode, 0), { ...valid, ...input })).toThrow(
		message,
	);
});
