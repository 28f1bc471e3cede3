import { simplifyAudit } from '../../../../../nodes/ReviewScraper/actions/listingAudit/simplify';

// The names every simplified source has, and the raw entry kept, are also checked through the
// engine in test/engine/ReviewScraper/listingAudit/get.workflow.json.
describe('listing audit simplification', () => {
	const byName = {
		company_name: 'Pizza Palace',
		phone: '+49 30 1234',
		review_count: 120,
		rating_distribution: { '5': 80, '4': '30', '1': '1,200' },
	};
	const byOtherNames = {
		business_name: 'Pizza Palace GmbH',
		phone_number: '+49 30 9999',
		rating_count: '45',
		rating_distribution: null,
	};
	const audit = { company_name: 'Pizza Palace', local_nap_sources: [byName, byOtherNames] };

	it('gives every source the same names and numeric counts, null where absent, keeping the raw entry', () => {
		const simplified = simplifyAudit(audit);
		expect(simplified.company_name).toBe('Pizza Palace');
		expect(simplified.local_nap_sources).toEqual([
			expect.objectContaining({
				name: 'Pizza Palace',
				phone: '+49 30 1234',
				review_count: 120,
				rating_distribution: { '5': 80, '4': 30, '1': 1200 },
			}),
			expect.objectContaining({
				name: 'Pizza Palace GmbH',
				phone: '+49 30 9999',
				review_count: 45,
				rating_distribution: null,
				address: null,
				url: null,
				average_rating: null,
				raw: byOtherNames,
			}),
		]);
		expect(simplifyAudit({ success: true }).local_nap_sources).toEqual([]);
	});
});
