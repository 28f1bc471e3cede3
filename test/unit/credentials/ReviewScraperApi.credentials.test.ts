import { ReviewScraperApi } from '../../../credentials/ReviewScraperApi.credentials';

describe('Review Scraper API credential', () => {
	it('says why a token was refused without naming the spiderman-token header', () => {
		const credential = new ReviewScraperApi();
		const messages = (credential.test.rules ?? []).map(
			(rule) => (rule.properties as { message: string }).message,
		);
		expect(messages.length).toBeGreaterThan(0);
		for (const message of messages) expect(message).not.toMatch(/spiderman/i);
		// The header the service reads keeps its real name.
		expect(credential.authenticate.properties.headers).toHaveProperty('spiderman-token');
	});
});
