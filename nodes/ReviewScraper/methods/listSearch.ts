import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { endpointRequest, send } from '../../shared/outgoing/transport';
import { respondJobList } from '../actions/respondJob/getAll.operation';

const TEXT_SHOWN = 40;

/** The respond jobs of the account, for Respond Job → Get's From List; the search matches the shown name. */
export async function searchRespondJobs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const jobs = await send.call(this, endpointRequest('review', 'GET /api/v2/responds/jobs'));
	const needle = (filter ?? '').trim().toLowerCase();
	const results = respondJobList(this.getNode(), jobs)
		.filter((job) => job.job_id !== undefined && job.job_id !== null)
		.map((job) => {
			const text = String(job.text ?? '');
			const shown = text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}…` : text;
			return {
				name: `#${job.job_id} ${job.status ?? ''}: ${shown || job.profile_url || ''}`.trim(),
				value: String(job.job_id),
			};
		})
		.filter((option) => needle === '' || option.name.toLowerCase().includes(needle));
	return { results };
}
