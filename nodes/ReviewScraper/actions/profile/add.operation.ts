import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { profileFields, readProfileParameters } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['add'] } },
	profileFields,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const qs = readProfileParameters.call(this, itemIndex);
	return await apiRequest.call(this, {
		api: 'review',
		method: 'POST',
		path: '/api/v2/profiles/add',
		qs,
		itemIndex,
	});
}
