export type ApiName = 'review' | 'scheduling' | 'ecommerce' | 'video' | 'photo' | 'social';

interface ApiAddress {
	credentialType: 'reviewScraperApi' | 'scrapingApi';
	baseUrlField: string;
	label: string;
}

/** The credential field that identifies the account, whose rate limit its requests share. */
export const SECRET_FIELDS: Record<ApiAddress['credentialType'], string> = {
	reviewScraperApi: 'apiToken',
	scrapingApi: 'apiKey',
};

export const DEFAULT_REQUESTS_PER_SECOND = 10;

export const API_ADDRESSES: Record<ApiName, ApiAddress> = {
	review: {
		credentialType: 'reviewScraperApi',
		baseUrlField: 'baseUrl',
		label: 'Review Scraper API',
	},
	scheduling: { credentialType: 'scrapingApi', baseUrlField: 'schedulingUrl', label: 'Scheduling' },
	ecommerce: {
		credentialType: 'scrapingApi',
		baseUrlField: 'ecommerceUrl',
		label: 'E-Commerce Search',
	},
	video: { credentialType: 'scrapingApi', baseUrlField: 'videoScraperUrl', label: 'Video Scraper' },
	photo: { credentialType: 'scrapingApi', baseUrlField: 'photoScraperUrl', label: 'Photo Scraper' },
	social: {
		credentialType: 'scrapingApi',
		baseUrlField: 'socialScraperUrl',
		label: 'Social Scraper',
	},
};
