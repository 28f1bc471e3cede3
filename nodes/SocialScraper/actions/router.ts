import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { oneAtATime, routeOperation } from '../../shared/operations';
import * as photoPost from './photoPost';
import * as socialPost from './socialPost';
import * as videoRequest from './videoRequest';

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await routeOperation.call(this, {
		photoPost: {
			search: photoPost.search,
			// Return All already reads several pages at once.
			getResults: oneAtATime(photoPost.getResults),
			getStatus: photoPost.getStatus,
		},
		socialPost: { scrape: socialPost.scrape, getResults: socialPost.getResults },
		videoRequest: { getStatus: videoRequest.getStatus },
	});
}
