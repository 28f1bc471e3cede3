import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Statuses after which a request never has results (docs/service-facts.md#social-scrapers). */
const ENDED_WITHOUT_RESULTS = ['failed', 'login_required'];

/**
 * The results endpoints answer before completion too (the service asks callers to check first), and
 * an empty list there would read as "no posts found". So anything but `completed` stops the item
 * with a message that says what the request's state is.
 */
export function assertCompleted(
	node: INode,
	itemIndex: number,
	requestId: string,
	record: IDataObject,
): void {
	if (record.status === 'completed') return;
	const status = typeof record.status === 'string' ? record.status : 'unknown';
	if (ENDED_WITHOUT_RESULTS.includes(status)) {
		throw new NodeOperationError(
			node,
			`Request ${requestId} did not complete: its status is "${status}", so it has no results`,
			{
				itemIndex,
				description: 'Submit the request again, or check its input (request_metadata) first.',
			},
		);
	}
	throw new NodeOperationError(
		node,
		`Request ${requestId} is not completed yet (status "${status}")`,
		{
			itemIndex,
			description:
				'Its results can be read once its status is "completed". The service does not intend its status and result endpoints for polling: let the callback URL given at submission (for example a Scraping Callback Trigger) tell you when it is done, then get the results.',
		},
	);
}

/** One item per post, each carrying the request it came from. */
export function postItems(envelope: IDataObject, requestId: string): IDataObject[] {
	const posts = Array.isArray(envelope.results) ? (envelope.results as IDataObject[]) : [];
	return posts.map((post) => ({ request_id: envelope.request_id ?? requestId, ...post }));
}

/**
 * Number of result pages of a photo-search envelope (docs/service-facts.md#social-scrapers); a
 * missing count means one page.
 */
export function totalPages(envelope: IDataObject): number {
	const pagination = (envelope.pagination ?? {}) as IDataObject;
	if (Number.isInteger(pagination.total_pages)) return pagination.total_pages as number;
	const total = Number(pagination.total);
	const perPage = Number(pagination.per_page);
	if (Number.isInteger(total) && Number.isInteger(perPage) && perPage > 0) {
		return Math.ceil(total / perPage);
	}
	return 1;
}
