import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class ReviewScraperApi implements ICredentialType {
	name = 'reviewScraperApi';

	displayName = 'Review Scraper API';

	icon: Icon = {
		light: 'file:../icons/reviewScraper.svg',
		dark: 'file:../icons/reviewScraper.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-review-scraping/n8n-nodes-review-scraping#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Token of your review scraper account, sent in the spiderman-token header',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the review profile API, without the /api/v2 path',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'spiderman-token': '={{$credentials.apiToken}}',
			},
		},
	};

	// Listing respond jobs is read-only and cheap, so it is the safest call to prove the token works.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v2/responds/jobs',
			method: 'GET',
		},
		rules: [
			{ type: 'responseCode', properties: { value: 401, message: 'The API token was refused: check the token' } },
			{ type: 'responseCode', properties: { value: 403, message: 'The API token was refused: check the token' } },
		],
	};
}
