import { simplifyAudit } from '../../../../../nodes/ReviewScraper/actions/listingAudit/simplify';

describe('listing audit simplification', () => {
	const audit = {
		success: true,
		status: 200,
		company_name: 'Pizza Palace',
		phone_number: '+49 30 1234',
		address: 'Main St 1',
		percentage_complete: 80,
		local_nap_sources: [
			{
				company_name: 'Pizza Palace',
				phone: '+49 30 1234',
				address: 'Main St 1',
				url: 'https://maps.example.com/p',
				average_rating: 4.5,
				review_count: 120,
				rating_distribution: { '5': 80, '4': '30', '1': '1,200' },
				source_name: 'maps.example.com',
			},
			{
				business_name: 'Pizza Palace GmbH',
				phone_number: '+49 30 9999',
				rating_count: '45',
				rating_distribution: null,
				source_name: 'reviews.example.org',
			},
		],
	};

	it('gives every source the same names and numeric counts, keeping the raw entry', () => {
		const simplified = simplifyAudit(audit);
		const [first, second] = simplified.local_nap_sources as Array<Record<string, unknown>>;
		expect(first).toMatchObject({
			name: 'Pizza Palace',
			phone: '+49 30 1234',
			review_count: 120,
			rating_distribution: { '5': 80, '4': 30, '1': 1200 },
			source_name: 'maps.example.com',
		});
		expect(second).toMatchObject({
			name: 'Pizza Palace GmbH',
			phone: '+49 30 9999',
			review_count: 45,
			rating_distribution: null,
			address: null,
			url: null,
			average_rating: null,
		});
		expect(second.raw).toBe(audit.local_nap_sources[1]);
		expect(simplified.company_name).toBe('Pizza Palace');
		expect(simplified.percentage_complete).toBe(80);
	});

	it('copes with an audit without sources', () => {
		expect(simplifyAudit({ success: true }).local_nap_sources).toEqual([]);
	});
});
