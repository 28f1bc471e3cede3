import { buildPhotoSearchBody } from '../../../../../nodes/SocialScraper/actions/photoPost/search.operation';
import { FieldReader } from '../../../../../nodes/shared/outgoing/validation';
import { testNode } from '../../../helpers';

const read = new FieldReader(testNode, 0);
const CALLBACK = 'https://n8n.example.com/webhook/scrapes';

describe('photo search body (spec section "Photo-sharing scraper")', () => {
	it('sends keyword and callback_url, and the external identifier when given', () => {
		expect(buildPhotoSearchBody(read, { keyword: ' #sunset ', callbackUrl: CALLBACK })).toEqual({
			callback_url: CALLBACK,
			keyword: '#sunset',
		});
		expect(
			buildPhotoSearchBody(read, {
				keyword: 'sunset',
				callbackUrl: CALLBACK,
				externalIdentifier: 'e'.repeat(1000),
			}),
		).toEqual({ callback_url: CALLBACK, keyword: 'sunset', external_identifier: 'e'.repeat(1000) });
	});

	it.each([
		[{ keyword: '', callbackUrl: CALLBACK }, 'Keyword or Hashtag is required (item 0)'],
		[{ keyword: 'x' }, 'Callback URL is required: the service delivers the posts to it'],
		[{ keyword: 'x', callbackUrl: 'localhost/hook' }, 'Callback URL must be an http(s) URL'],
	])('refuses %j', (input, message) => {
		expect(() => buildPhotoSearchBody(read, input)).toThrow(message);
	});
});
