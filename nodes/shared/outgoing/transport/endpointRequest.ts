import { ENDPOINTS, type ApiName, type EndpointTable } from '../../endpoints';
import type { ServiceRequest } from './apis';

/**
 * The request for one endpoint of the endpoint table, named as the interface writes it
 * (`'GET /v1/requests/:request_id'`), its path parameters filled in. The method and path come from
 * the table, so an operation cannot call an endpoint the table does not declare: asking for one
 * throws at once, as the programming error it is.
 */
export function endpointRequest(
	api: ApiName,
	route: string,
	pathParams: Record<string, string | number> = {},
	parts: Pick<ServiceRequest, 'qs' | 'body'> = {},
	table: EndpointTable = ENDPOINTS,
): ServiceRequest {
	const endpoint = table.endpoints.find(
		(candidate) => candidate.api === api && `${candidate.method} ${candidate.path}` === route,
	);
	if (!endpoint) throw new Error(`The endpoint table has no ${api} endpoint ${route}`);
	const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
		const value = pathParams[name];
		if (value === undefined || value === '') {
			throw new Error(`${route} needs its path parameter ${name}`);
		}
		return encodeURIComponent(String(value));
	});
	return { api, method: endpoint.method, path, ...parts };
}
