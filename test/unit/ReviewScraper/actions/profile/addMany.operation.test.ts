import type { IDataObject } from 'n8n-workflow';

import * as profile from '../../../../../nodes/ReviewScraper/actions/profile';
import { runOperation } from '../../../../../nodes/shared/outgoing/router';
import { serviceContext } from '../../../helpers';

// How Add Many maps items and list fields into bulk requests, pairs its output and refuses a bad
// profile before sending is test/engine/ReviewScraper/profile/addMany*.workflow.json's.
describe('Add Many', () => {
	it('stops at a failed request and names, with their ids, the profiles the service accepted', async () => {
		let nextJob = 100;
		const { context, sent } = serviceContext({
			items: [1, 2, 3, 4, 5].map((n) => ({ url: `https://reviews.example.com/biz/${n}` })),
			node: { typeVersion: 1.1, parameters: { inputMode: 'autoMap', options: { batchSize: 2 } } },
			answer: (request, index) =>
				index === 1
					? { statusCode: 400, body: { message: 'Bad batch' } }
					: {
							statusCode: 200,
							body: (request.body as IDataObject[]).map(() => ({
								success: true,
								job_id: nextJob++,
							})),
						},
		});
		await expect(runOperation.call(context, profile.operations.addMany)).rejects.toMatchObject({
			message: 'Bad batch',
			description: expect.stringMatching(
				/2 profiles were already accepted by the service before the run stopped: do not send them again \(item 0: job_id 100 \(url https:\/\/reviews.example.com\/biz\/1\); item 1: job_id 101 .+\)\.$/,
			),
		});
		expect(sent).toHaveLength(2);
	});
});
