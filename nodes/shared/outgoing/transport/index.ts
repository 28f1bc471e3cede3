export { send, type SendOptions } from './send';
export { retryMemory, notSentAgain, type RetryMemory } from './retryMemory';
export { retryPolicy } from './retryPolicy';
export { fetchAllPages, type Page } from './pagination';
export { markMaybeAccepted, mayHaveBeenAccepted, serviceError, toNodeError } from './errors';
export {
	API_ADDRESSES,
	serviceBaseUrl,
	type ApiName,
	type RequestContext,
	type ServiceRequest,
} from './apis';
