import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	limitField,
	optionsCollection,
	outputField,
	returnAllField,
	toolDescriptionField,
} from '../../../shared/outgoing/descriptions';
import { FollowUp, type PreparedItem } from '../../../shared/outgoing/router';
import type { ServiceRequest } from '../../../shared/outgoing/transport';
import { FieldReader } from '../../../shared/outgoing/validation';
import { notForPollingNotice, readRequestId, requestIdField } from '../socialRequestParts';
import { assertCompleted, postItems, totalPages } from '../results';
import { asRecord } from '../scraperRequest';
import { LIMIT_AT_TOP_LEVEL_FROM } from '../../versions';
import { endpointRequest } from '../../../shared/outgoing/transport';

export const RETURN_ALL_PAGE_SIZE = 100;
/** Return All reads several pages at once already: its items go one after the other. */
export const oneAtATime = true;
export const PAGE_CONCURRENCY = 8;

const properties: INodeProperties[] = [
	notForPollingNotice('pollingNotice'),
	requestIdField('The request_id returned by Search'),
	{
		...returnAllField,
		description: 'Whether to return the posts of every page or only the page chosen below',
		displayOptions: { show: { '@version': [{ _cnd: { lt: LIMIT_AT_TOP_LEVEL_FROM } }] } },
	},
	{
		displayName: 'Page',
		name: 'page',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'Page of posts to return; its size is Options → Results per Page',
		displayOptions: {
			show: { returnAll: [false], '@version': [{ _cnd: { lt: LIMIT_AT_TOP_LEVEL_FROM } }] },
		},
	},
	// From LIMIT_AT_TOP_LEVEL_FROM, n8n's usual Return All / Limit: the first Limit posts, over as many pages.
	{
		...returnAllField,
		description: 'Whether to return every post of the search or only up to a given limit',
		displayOptions: { show: { '@version': [{ _cnd: { gte: LIMIT_AT_TOP_LEVEL_FROM } }] } },
	},
	{
		...limitField,
		description: 'Max number of posts to return, read over as many pages as it takes',
		displayOptions: {
			show: { returnAll: [false], '@version': [{ _cnd: { gte: LIMIT_AT_TOP_LEVEL_FROM } }] },
		},
	},
	{
		...outputField(
			{
				name: 'One Item per Post',
				value: 'posts',
				description: 'Each post of the page with the request_id',
			},
			'One item with the posts, summary, pagination (of the first page read) and request metadata',
		),
		displayOptions: { show: { returnAll: [false] } },
	},
	optionsCollection([
		{
			displayName: 'Results per Page',
			name: 'perPage',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: RETURN_ALL_PAGE_SIZE,
			description: `Number of posts per page. With Return All, the pages are read ${PAGE_CONCURRENCY} at a time with ${RETURN_ALL_PAGE_SIZE} posts each unless set.`,
		},
	]),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['photoPost'], operation: ['getResults'] } },
	[
		...properties,
		...toolDescriptionField(
			'Reads the posts found by a finished photo-sharing search. Request ID: the request_id the search returned.',
		),
	],
);

export function prepare(this: IExecuteFunctions, itemIndex: number): PreparedItem {
	const read = new FieldReader(this.getNode(), itemIndex);
	const requestId = readRequestId.call(this, itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const perPage = read.optionalInteger('Results per Page', options.perPage, { min: 1 });
	const byLimit = !returnAll && this.getNode().typeVersion >= LIMIT_AT_TOP_LEVEL_FROM;
	const limit = byLimit
		? read.requiredInteger('Limit', this.getNodeParameter('limit', itemIndex, 50), { min: 1 })
		: undefined;
	const page =
		returnAll || byLimit
			? 1
			: (read.optionalInteger('Page', this.getNodeParameter('page', itemIndex, 1), { min: 1 }) ??
				1);
	const wholeResponse =
		!returnAll && this.getNodeParameter('output', itemIndex, 'posts') === 'envelope';

	const pageRequest = (pageNumber: number, size: number | undefined): ServiceRequest =>
		endpointRequest(
			'photo',
			'GET /v1/search/:request_id',
			{ request_id: requestId },
			{ qs: size === undefined ? { page: pageNumber } : { page: pageNumber, per_page: size } },
		);
	const completed = (answer: unknown) => {
		const envelope = asRecord(answer);
		assertCompleted(this.getNode(), itemIndex, requestId, envelope);
		return envelope;
	};
	const readResults = (): FollowUp => {
		if (returnAll) {
			const size = perPage ?? RETURN_ALL_PAGE_SIZE;
			return new FollowUp({
				pages: {
					request: (pageNumber) => pageRequest(pageNumber, size),
					read: (answer) => {
						const envelope = completed(answer);
						return { items: postItems(envelope, requestId), totalPages: totalPages(envelope) };
					},
					concurrency: PAGE_CONCURRENCY,
				},
			});
		}
		if (limit !== undefined) {
			const size = perPage ?? Math.min(limit, RETURN_ALL_PAGE_SIZE);
			let first: IDataObject = {};
			return new FollowUp({
				pages: {
					request: (pageNumber) => pageRequest(pageNumber, size),
					read: (answer, pageNumber) => {
						const envelope = completed(answer);
						if (pageNumber === 1) first = envelope;
						const results = Array.isArray(envelope.results) ? envelope.results : [];
						return { items: results as IDataObject[], totalPages: totalPages(envelope) };
					},
					concurrency: PAGE_CONCURRENCY,
					maxPages: Math.ceil(limit / size),
				},
				toOutput: (posts: IDataObject[]) => {
					const envelope = { ...first, results: posts.slice(0, limit) };
					return wholeResponse ? envelope : postItems(envelope, requestId);
				},
			});
		}
		return new FollowUp({
			request: pageRequest(page, perPage),
			toOutput: (answer: unknown) => {
				const envelope = completed(answer);
				return wholeResponse ? envelope : postItems(envelope, requestId);
			},
		});
	};

	// The service asks for the status to be read before the results.
	return {
		request: endpointRequest('photo', 'GET /v1/requests/:request_id', { request_id: requestId }),
		toOutput: (status: unknown) => {
			completed(status);
			return readResults();
		},
	};
}
