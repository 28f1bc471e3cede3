import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

const refused = 'The API token was refused';

// n8n checks status rules on an HTTP error and body rules on a success; its type wants one kind per
// list, its tester reads both.
const refusalRules = [
	{ type: 'responseCode', properties: { value: 401, message: `${refused}: check the token` } },
	{ type: 'responseCode', properties: { value: 403, message: `${refused}: check the token` } },
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'message',
			value: 'Invalid spiderman-token',
			message: `${refused}: the service says the token is invalid. Check the API Token field`,
		},
	},
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'success',
			value: false,
			message: `${refused}: the service answered success: false. Check the token and the Base URL`,
		},
	},
] as ICredentialTestRequest['rules'];

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
			description: 'The API token of your Review Scraper API account, as the service issued it',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://reviews.example.com',
			description: 'Address of the review profile API, without the /api/v2 path',
		},
		{
			displayName: 'Requests per Second',
			name: 'requestsPerSecond',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				'Most requests the nodes send per second with this token, shared by every workflow running in this n8n instance. The service accepts 10 per second unless your plan says more. 0 sends without pacing.',
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
	// The service refuses a token with HTTP 200 and `success: false`, so only the body tells; n8n's
	// rules cannot quote the body, so the message the service is known to send has a rule of its own.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v2/responds/jobs',
			method: 'GET',
		},
		rules: refusalRules,
	};
}
