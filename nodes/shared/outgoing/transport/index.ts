export {
	apiRequest,
	serviceBaseUrl,
	type ApiRequestOptions,
	type RequestContext,
	type ServiceRequest,
} from './request';
export { retryPolicy } from './retryPolicy';
export { fetchAllPages, type Page } from './pagination';
export {
	isServiceFailure,
	markPossiblyCarriedOut,
	mayHaveBeenCarriedOut,
	serviceError,
	toNodeError,
} from './errors';
export { API_ADDRESSES, type ApiName } from './apis';
