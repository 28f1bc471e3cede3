export { apiRequest, type ApiRequestOptions, type RequestContext } from './request';
export { retryPolicy } from './retryPolicy';
export { fetchAllPages, type Page } from './pagination';
export { isServiceFailure, serviceError } from './errors';
export { API_ADDRESSES, type ApiName } from './apis';
