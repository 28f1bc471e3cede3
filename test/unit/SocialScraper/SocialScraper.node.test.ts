import type { INodePropertyOptions } from 'n8n-workflow';

import * as photoPost from '../../../nodes/SocialScraper/actions/photoPost';
import * as socialPost from '../../../nodes/SocialScraper/actions/socialPost';
import * as videoRequest from '../../../nodes/SocialScraper/actions/videoRequest';
import { SocialScraper } from '../../../nodes/SocialScraper/SocialScraper.node';

const { description } = new SocialScraper();
const modules: Record<string, { operations: Record<string, unknown> }> = {
	photoPost,
	socialPost,
	videoRequest,
};

describe('Social Scraper description', () => {
	it('is an AI-usable node on the Scraping API credential', () => {
		expect(description).toMatchObject({
			name: 'socialScraper',
			usableAsTool: true,
			credentials: [{ name: 'scrapingApi', required: true }],
		});
	});

	it("offers the resources and operations of the spec's three scraper sections, each backed by an operation module", () => {
		const offered: Record<string, string[]> = {};
		for (const property of description.properties.filter((p) => p.name === 'operation')) {
			const [resource] = property.displayOptions!.show!.resource as string[];
			offered[resource] = (property.options as INodePropertyOptions[]).map((o) => String(o.value));
		}
		expect(offered).toEqual({
			photoPost: ['getResults', 'getStatus', 'search'],
			socialPost: ['getResults', 'scrape'],
			videoRequest: ['getStatus'],
		});
		for (const [resource, operations] of Object.entries(offered)) {
			for (const operation of operations) {
				expect(modules[resource].operations[operation]).toHaveProperty('prepare');
			}
		}
	});

	it('gives every operation an action text for AI agents', () => {
		for (const property of description.properties.filter((p) => p.name === 'operation')) {
			for (const option of property.options as INodePropertyOptions[]) {
				expect(option.action).toEqual(expect.any(String));
			}
		}
	});
});
