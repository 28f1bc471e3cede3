import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

const baseUrlField = (
	displayName: string,
	name: string,
	placeholder: string,
	description: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder,
	description,
});

export class ScrapingApi implements ICredentialType {
	name = 'scrapingApi';

	displayName = 'Scraping API';

	icon: Icon = { light: 'file:../icons/scraping.svg', dark: 'file:../icons/scraping.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-review-scraping/n8n-nodes-review-scraping#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'One key for several APIs: fill only the URLs of the APIs you use (each field says which nodes need it) and leave the others empty',
			name: 'usageNotice',
			type: 'notice',
			default: '',
		},
		{
			// The connection test's refusal is only shown behind "More details", so the same rule is
			// said here, where it is seen before anything is saved.
			displayName:
				'No API URL is filled yet: fill the URL of at least one API below, or the connection test fails',
			name: 'noUrlNotice',
			type: 'notice',
			default: '',
			displayOptions: {
				show: {
					schedulingUrl: [''],
					ecommerceUrl: [''],
					videoScraperUrl: [''],
					photoScraperUrl: [''],
					socialScraperUrl: [''],
				},
			},
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'API key of your scraping account, sent in the x-api-key header',
		},
		baseUrlField(
			'Scheduling URL',
			'schedulingUrl',
			'e.g. https://scheduling.example.com',
			'Used by the Scraping Scheduler node (every operation) and the Recurring Reviews Trigger',
		),
		baseUrlField(
			'E-Commerce Search URL',
			'ecommerceUrl',
			'e.g. https://ecommerce-search.example.com',
			'Used by the E-Commerce Search node (Product → Search)',
		),
		baseUrlField(
			'Video Scraper URL',
			'videoScraperUrl',
			'e.g. https://video-scraper.example.com',
			'Used by the Social Scraper node, Video Request → Get Status',
		),
		baseUrlField(
			'Photo Scraper URL',
			'photoScraperUrl',
			'e.g. https://photo-scraper.example.com',
			'Used by the Social Scraper node, Photo Post → Search, Get Results and Get Status',
		),
		baseUrlField(
			'Social Scraper URL',
			'socialScraperUrl',
			'e.g. https://social-scraper.example.com',
			'Used by the Social Scraper node, Social Post → Scrape and Get Results',
		),
		{
			displayName: 'Requests per Second',
			name: 'requestsPerSecond',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				'Most requests the nodes send per second with this key to each of the APIs above, shared by every workflow running in this n8n instance. The service does not publish these limits; 10 matches the review API. 0 sends without pacing.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'x-api-key': '={{$credentials.apiKey}}',
			},
		},
	};

	// Tested by the nodes (testedBy: scrapingApiTest), which check every URL that is filled.
}
