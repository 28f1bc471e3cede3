import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * On n8n 1.x a waiting node whose job failed runs again on the one item its resume webhook marked
 * (incoming/resume.ts writes the mark); the router throws the failure before preparing anything.
 */
const RESUMED_FAILURE = '__resumed_failure';

interface ResumedFailure {
	/** This node's ID: another node that receives the item does not throw. */
	node: string;
	description: string;
}

export function markResumedFailure(
	json: IDataObject,
	nodeId: string,
	description: string,
): IDataObject {
	const failure: ResumedFailure = { node: nodeId, description };
	return { ...json, [RESUMED_FAILURE]: failure };
}

export function throwResumedFailure(this: IExecuteFunctions): void {
	const items = this.getInputData();
	if (items.length !== 1) return;
	const { json } = items[0];
	const failure = json[RESUMED_FAILURE] as ResumedFailure | undefined;
	if (failure?.node !== this.getNode().id || typeof json.error !== 'string') return;
	throw new NodeOperationError(this.getNode(), json.error, {
		description: failure.description,
		itemIndex: 0,
	});
}
