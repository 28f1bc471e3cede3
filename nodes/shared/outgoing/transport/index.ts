export { send, type SendOptions } from './send';
export { retryPolicy } from './retryPolicy';
export { fetchAllPages, type Page } from './pagination';
export { markMaybeAccepted, mayHaveBeenAccepted, serviceError, toNodeError } from './errors';
export {
	API_ADDRESSES,
	endpointRequest,
	serviceBaseUrl,
	type ApiName,
	type RequestContext,
	type ServiceRequest,
} from './apis';
