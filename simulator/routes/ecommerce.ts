/**
 * E-commerce search API ({ecommerce_url}), key in the `x-api-key` header. Assumed (not documented,
 * docs/service-facts.md#not-documented): the envelope is answered synchronously (or, with the
 * `ecommerceResponse: 'ack'` option, only a SubmitAck) and the callback receives every product
 * found (after filters and limit) in one envelope whose pagination is `{ current_page: 1,
 * page_size: <count>, total_pages: 1 }`; `credits_used` is 1 per product found; both or neither of
 * url/keyword, unknown sources, product pages and unsupported hosts are 400.
 */
import { parseSearchUrl, runSearch } from '../catalog';
import { type ApiDefinition, apiKeyError, json, type RouteContext, schedulingError } from '../http';
import { type EcommerceEnvelopeBody, EcommerceSearchRequest, formatZodError } from '../schemas';

function search(ctx: RouteContext) {
	const { rt } = ctx;
	const parsed = EcommerceSearchRequest.safeParse(ctx.body);
	if (!parsed.success) return schedulingError(400, 'Invalid request', formatZodError(parsed.error));
	const request = parsed.data;
	if (request.url !== undefined) {
		const checked = parseSearchUrl(request.url);
		if ('error' in checked) return schedulingError(400, 'Invalid request', `url: ${checked.error}`);
	}
	const outcome = runSearch(request, rt.config.productCount);
	const requestId = rt.state.newRequestId('ecommerce');
	const credits = outcome.found.length;
	const callbackPayload: EcommerceEnvelopeBody = {
		request_id: requestId,
		status: 'success',
		credits_used: credits,
		results: outcome.found,
		pagination: { current_page: 1, page_size: outcome.found.length, total_pages: 1 },
		summary: outcome.summary,
	};
	rt.state.work.productSearch.set(requestId, {
		request_id: requestId,
		created_at: new Date(),
		callbackPayload,
	});
	rt.completeLater(() => rt.deliver(request.callback, callbackPayload, 'productSearch', requestId));
	if (rt.config.ecommerceResponse === 'ack') {
		return json(200, { request_id: requestId, status: 'created', message: 'Search created' });
	}
	const envelope: EcommerceEnvelopeBody = {
		request_id: requestId,
		status: 'success',
		credits_used: credits,
		results: outcome.page,
		pagination: outcome.pagination,
		summary: outcome.summary,
	};
	return json(200, envelope);
}

export const ecommerceApi: ApiDefinition = {
	name: 'ecommerce',
	authenticate: apiKeyError,
	error: (status, message, details) => schedulingError(status, message, details ?? null),
	routes: [{ method: 'POST', path: '/search', handler: search }],
};
