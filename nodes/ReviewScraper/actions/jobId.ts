import type { INodeProperties } from 'n8n-workflow';

/**
 * The ID of a job of the review API, which every job resource is read by, named for the kind of job
 * it is (a respond job's ID is not a profile job's). Text, not a number field: a number field
 * cannot be empty and showed 0, which the service has no job for. Saved numbers and expressions
 * are read as before (a whole number of at least 1).
 */
export const jobIdField = (displayName: string, description: string): INodeProperties => ({
	displayName,
	name: 'jobId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 10001',
	description,
});
