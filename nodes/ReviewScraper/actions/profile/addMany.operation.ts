import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { errorItem, toNodeError } from '../../../shared/operations';
import { apiRequest } from '../../../shared/transport';
import { profileFields, readProfileParameters } from './fields';

export const DEFAULT_BATCH_SIZE = 100;

const properties: INodeProperties[] = [
	{
		displayName:
			'Each input item becomes one profile; items are sent together in bulk requests of "Batch Size" profiles',
		name: 'addManyNotice',
		type: 'notice',
		default: '',
	},
	...profileFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
				default: DEFAULT_BATCH_SIZE,
				description: 'Maximum number of profiles sent in one bulk request',
			},
		],
	},
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['profile'], operation: ['addMany'] } },
	properties,
);

interface Pending {
	itemIndex: number;
	profile: IDataObject;
}

export async function executeBatch(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const continueOnFail = this.continueOnFail();
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const batchSize = Math.max(1, Math.floor(Number(options.batchSize ?? DEFAULT_BATCH_SIZE)));

	const output: Array<INodeExecutionData | undefined> = new Array(items.length);
	const pending: Pending[] = [];
	// Every item is checked before the first bulk request, so a bad item never leaves half the
	// input queued and the rest not.
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			pending.push({ itemIndex, profile: readProfileParameters.call(this, itemIndex) });
		} catch (error) {
			const itemError = toNodeError(this.getNode(), error, itemIndex);
			if (!continueOnFail) throw itemError;
			output[itemIndex] = errorItem(itemError, itemIndex);
		}
	}

	const refused: Array<{ itemIndex: number; message: string; status?: unknown }> = [];
	let queued = 0;
	for (let start = 0; start < pending.length; start += batchSize) {
		const batch = pending.slice(start, start + batchSize);
		let results: unknown;
		try {
			results = await apiRequest.call(this, {
				api: 'review',
				method: 'POST',
				path: '/api/v2/profiles/add_bulk',
				body: batch.map(({ profile }) => profile),
				itemIndex: batch[0].itemIndex,
			});
			if (!Array.isArray(results) || results.length !== batch.length) {
				throw new NodeOperationError(
					this.getNode(),
					`The bulk response has ${Array.isArray(results) ? results.length : 'no'} elements for ${batch.length} profiles`,
					{ itemIndex: batch[0].itemIndex },
				);
			}
		} catch (error) {
			const batchError = toNodeError(this.getNode(), error, batch[0].itemIndex);
			if (!continueOnFail) {
				if (queued > 0) {
					batchError.description =
						`${batchError.description ?? ''} ${queued} profiles of earlier batches were already queued.`.trim();
				}
				throw batchError;
			}
			for (const { itemIndex } of batch) output[itemIndex] = errorItem(batchError, itemIndex);
			continue;
		}

		batch.forEach(({ itemIndex }, position) => {
			const element = (results as IDataObject[])[position] ?? {};
			if (element.success === false) {
				const message = String(element.message ?? 'The service refused this profile');
				refused.push({ itemIndex, message, status: element.status });
				output[itemIndex] = {
					json: { ...element, error: message },
					pairedItem: { item: itemIndex },
				};
			} else {
				queued++;
				output[itemIndex] = { json: element, pairedItem: { item: itemIndex } };
			}
		});
	}

	if (refused.length > 0 && !continueOnFail) {
		const [first] = refused;
		throw new NodeApiError(
			this.getNode(),
			{ message: first.message },
			{
				message: `The service refused the profile of item ${first.itemIndex}: ${first.message}`,
				description: `${refused.length} of ${pending.length} profiles were refused (items ${refused
					.map((r) => r.itemIndex)
					.join(
						', ',
					)}); the other ${queued} were queued. Turn on "Continue On Fail" to get one output item per profile.`,
				httpCode: typeof first.status === 'number' ? String(first.status) : undefined,
				itemIndex: first.itemIndex,
			},
		);
	}
	return output.filter((item): item is INodeExecutionData => item !== undefined);
}
