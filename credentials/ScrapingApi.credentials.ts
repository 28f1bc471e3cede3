import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

const baseUrlField = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder: 'https://api.example.com',
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
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'API key of your scraping account, sent in the x-api-key header',
		},
		baseUrlField('Scheduling URL', 'schedulingUrl', 'Address of the scheduling API (schedules)'),
		baseUrlField('E-Commerce Search URL', 'ecommerceUrl', 'Address of the e-commerce search API'),
		baseUrlField('Video Scraper URL', 'videoScraperUrl', 'Address of the video-platform scraper'),
		baseUrlField('Photo Scraper URL', 'photoScraperUrl', 'Address of the photo-sharing scraper'),
		baseUrlField('Social Scraper URL', 'socialScraperUrl', 'Address of the social-network scraper'),
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
