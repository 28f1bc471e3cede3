import type { INodeProperties } from 'n8n-workflow';

/** The ID of a job of the review API, which every job resource is read by. */
export const jobIdField = (description: string): INodeProperties => ({
	displayName: 'Job ID',
	name: 'jobId',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	required: true,
	default: 0,
	description,
});
