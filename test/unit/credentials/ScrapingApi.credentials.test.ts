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
	it('shows the "no URL filled" refusal on the form itself while every URL is empty', () => {
		const notice = property('noUrlNotice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/fill the URL of at least one API/);
		expect(shown({}, notice)).toBe(true);
		expect(urlFields).toHaveLength(5);
		for (const field of urlFields) {
			expect([field.name, shown({ [field.name]: 'https://x.example.com' }, notice)]).toEqual([
				field.name,
				false,
			]);
		}
	});
});
