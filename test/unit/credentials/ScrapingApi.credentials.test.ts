import { NodeHelpers, type INodeProperties } from 'n8n-workflow';

import { ScrapingApi } from '../../../credentials/ScrapingApi.credentials';

const credential = new ScrapingApi();
const urlFields = credential.properties.filter((p) => p.name.endsWith('Url'));
const property = (name: string) => credential.properties.find((p) => p.name === name)!;
const shown = (values: Record<string, string>, parameter: INodeProperties) =>
	NodeHelpers.displayParameter(
		{ ...Object.fromEntries(credential.properties.map((p) => [p.name, p.default])), ...values },
		parameter,
		null,
		null,
	);

describe('Scraping API credential form', () => {
	it('says at the top that only the APIs you use need a URL', () => {
		const [first] = credential.properties;
		expect(first.type).toBe('notice');
		expect(first.displayName).toMatch(/fill only the URLs of the APIs you use/);
		expect(first.displayOptions).toBeUndefined();
	});

	it('has five URL fields, each saying which nodes use it, with a placeholder of its own', () => {
		expect(urlFields.map((p) => p.name)).toEqual([
			'schedulingUrl',
			'ecommerceUrl',
			'videoScraperUrl',
			'photoScraperUrl',
			'socialScraperUrl',
		]);
		for (const field of urlFields) {
			expect([field.name, field.description]).toEqual([
				field.name,
				expect.stringMatching(/^Used by the /),
			]);
			expect(field.placeholder).toMatch(/^e\.g\. https:\/\/[a-z-]+\.example\.com$/);
			expect(field.required).toBeFalsy();
		}
		expect(new Set(urlFields.map((p) => p.placeholder)).size).toBe(urlFields.length);
		expect(property('schedulingUrl').description).toMatch(/Scraping Scheduler.*Recurring Reviews/);
		expect(property('ecommerceUrl').description).toMatch(/E-Commerce Search/);
		expect(property('videoScraperUrl').description).toMatch(/Video Request → Get Status/);
		expect(property('photoScraperUrl').description).toMatch(/Photo Post → Search/);
		expect(property('socialScraperUrl').description).toMatch(/Social Post → Scrape/);
	});

	it('shows the "no URL filled" refusal on the form itself while every URL is empty', () => {
		const notice = property('noUrlNotice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/fill the URL of at least one API/);
		expect(shown({}, notice)).toBe(true);
		for (const field of urlFields) {
			expect([field.name, shown({ [field.name]: 'https://x.example.com' }, notice)]).toEqual([
				field.name,
				false,
			]);
		}
	});
});
