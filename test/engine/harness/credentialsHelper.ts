import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { deepCopy, ICredentialsHelper, isExpression, NodeHelpers, Workflow } from 'n8n-workflow';

import { createNodeTypes } from './nodeTypes';

const MOCK_NODE: INode = {
	id: 'mock',
	name: '',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const MOCK_NODE_TYPES: INodeTypes = createNodeTypes({
	mock: { description: { properties: [] } } as unknown as INodeType,
});

/**
 * Stands in for n8n's server-side credentials helper: credentials come from memory, defaults
 * and expressions are applied as n8n applies them, and generic `authenticate` is resolved
 * through the workflow's expression evaluator.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly types = new Map<string, ICredentialType>();

	constructor(
		credentialTypes: ICredentialType[],
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
		for (const type of credentialTypes) this.types.set(type.name, type);
	}

	private getType(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown credential type "${name}": pass it in credentialTypes`);
		return type;
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.getType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node) throw new Error('Generic authentication needs a workflow and a node');
			const resolve = (value: string) => {
				if (!isExpression(value)) return value;
				const resolved = workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
				return resolved ? resolved.toString() : '';
			};
			requestOptions.headers ??= {};
			const target = requestOptions as unknown as Record<string, Record<string, string>>;
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					target[outerKey] ??= {};
					target[outerKey][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<undefined> {
		if (this.getType(typeName).preAuthentication) {
			throw new Error(`Credential type "${typeName}" uses preAuthentication: not supported here`);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<undefined> {
		return await this.preAuthentication(helpers, credentials, typeName);
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Encrypted credentials are not available in the engine harness');
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.data[type];
		if (!stored) {
			throw new Error(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		const data = deepCopy(stored);
		if (raw) return data;
		return this.applyDefaultsAndExpressions(
			additionalData,
			data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	applyDefaultsAndExpressions(
		additionalData: IWorkflowExecuteAdditionalData,
		stored: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			return workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}
		const workflow = new Workflow({
			nodes: [{ ...MOCK_NODE }],
			connections: {},
			active: false,
			nodeTypes: MOCK_NODE_TYPES,
		});
		return workflow.expression.getComplexParameterValue(
			MOCK_NODE,
			withDefaults as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data[type] = data;
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new Error('OAuth credentials are not supported by the engine harness');
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getType(type);
		if (!credentialType.extends) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}
