import { buildScrapeBody } from '../../../../../nodes/SocialScraper/actions/socialPost/scrape.operation';
import { FieldReader } from '../../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../../helpers';

const read = new FieldReader(testNode, 0);
const CALLBACK = 'https://n8n.example.com/webhook/scrapes';

describe('social scrape body (spec section "Social-network scraper")', () => {
	const POST = 'https://social.example.com/p/1';

	it('sends url and callback_url only when nothing else is given', () => {
		expect(buildScrapeBody(read, { url: POST, callbackUrl: CALLBACK })).toEqual({
			callback_url: CALLBACK,
			url: POST,
		});
	});

	// 300 characters: the 255 limit on an external identifier is the review API's.
	it.each([true, false])(
		'sends get_comments %s when it was set, and a long external identifier',
		(getComments) => {
			expect(
				buildScrapeBody(read, {
					url: POST,
					callbackUrl: CALLBACK,
					getComments,
					externalIdentifier: 'e'.repeat(300),
				}),
			).toEqual({
				callback_url: CALLBACK,
				url: POST,
				get_comments: getComments,
				external_identifier: 'e'.repeat(300),
			});
		},
	);

	it.each([
		[{ callbackUrl: CALLBACK }, 'Post URL is required: it is the post to scrape'],
		[{ url: 'not a url', callbackUrl: CALLBACK }, 'Post URL must be an http(s) URL'],
		[{ url: POST }, 'Callback URL is required: the service delivers the post to it'],
		[
			{ url: POST, callbackUrl: CALLBACK, getComments: 'yes' },
			'Get Comments must be true or false',
		],
	])('refuses %j', (input, message) => {
		expect(() => buildScrapeBody(read, input)).toThrow(message);
	});
});
