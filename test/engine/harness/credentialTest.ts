import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';
import { createRunExecutionData, deepCopy, Workflow } from 'n8n-workflow';

import { createAdditionalData, createEnvironment } from './environment';
import { createNodeTypes } from './nodeTypes';

type CredentialTestOptions = { nodeTypes?: INodeType[] };

/** An environment holding only the credential under test, as n8n's credential tester builds one. */
function credentialEnvironment(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
) {
	return createEnvironment({
		nodes: [],
		nodeTypes: {},
		credentialTypes: [credentialType],
		credentials: { [credentialType.name]: data },
		mode: 'internal',
	});
}

/**
 * As n8n does for a credential without `test`: the first node that names it with a `testedBy`
 * string runs that function of its `methods.credentialTest`, in n8n-core's credential test context.
 */
async function testCredentialByNode(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
	opts: CredentialTestOptions,
): Promise<INodeCredentialTestResult> {
	for (const nodeType of opts.nodeTypes ?? []) {
		const entry = nodeType.description.credentials?.find(
			(credential) => credential.name === credentialType.name && credential.testedBy,
		);
		if (!entry || typeof entry.testedBy !== 'string') continue;
		const testFunction = nodeType.methods?.credentialTest?.[entry.testedBy];
		if (!testFunction) continue;
		const env = credentialEnvironment(credentialType, data);
		const context = new CredentialTestContext(createAdditionalData(env));
		return await testFunction.call(context, {
			id: 'temp',
			name: credentialType.name,
			type: credentialType.name,
			data: deepCopy(data),
		});
	}
	return { status: 'Error', message: 'No testing function found for this credential.' };
}

/**
 * Runs a credential type's `test.request` the way n8n's credential tester does: through a
 * temporary declarative node, so `baseURL`/`url` expressions, `authenticate` and n8n's own HTTP
 * client all take part.
 */
export async function testCredential(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
	opts: CredentialTestOptions = {},
): Promise<INodeCredentialTestResult> {
	const { test } = credentialType;
	if (!test) return await testCredentialByNode(credentialType, data, opts);

	const env = credentialEnvironment(credentialType, data);
	const additionalData = createAdditionalData(env);
	let credentialData: ICredentialDataDecryptedObject;
	try {
		credentialData = env.credentialsHelper.applyDefaultsAndExpressions(
			additionalData,
			deepCopy(data),
			credentialType.name,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message) };
	}

	const tempNodeType = {
		description: {
			displayName: 'No Operation',
			name: 'n8n-nodes-base.noOp',
			group: ['organization'],
			version: 1,
			description: 'Credential test',
			defaults: { name: 'Temp-Node' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	} as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: tempNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: 'temp', name: credentialType.name } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: createNodeTypes({ [tempNodeType.description.name]: tempNodeType }),
	});
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({ executionData: null }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, tempNodeType, {
		id: 'temp',
		name: credentialType.name,
		type: credentialType.name,
		data: credentialData,
	});

	let response: INodeExecutionData[][] | undefined;
	try {
		response = await workflow.expression.withIsolate(async () => await routingNode.runNode());
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const { status, statusText } = cause.response;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String((error as Error).message) };
	}

	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json ?? {};
		const value = rule.properties.key
			.split('.')
			.reduce<unknown>((obj, key) => (obj as IDataObject | undefined)?.[key], body);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
