import type { INodeExecutionData, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { deepCopy, NodeHelpers } from 'n8n-workflow';

export type NodeTypeMap = Record<string, INodeType | IVersionedNodeType>;

export const INPUT_NODE = 'Input';
export const INPUT_NODE_TYPE = 'harness.input';

export function latestVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

export function createNodeTypes(types: NodeTypeMap): INodeTypes {
	return {
		getByName: (name) => types[name],
		getByNameAndVersion: (name, version) => {
			const type = types[name];
			if (!type) throw new Error(`Unknown node type "${name}"`);
			return NodeHelpers.getVersionedNodeType(type, version);
		},
		getKnownTypes: () => ({}),
	};
}

export function inputNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Input',
			name: INPUT_NODE_TYPE,
			group: ['input'],
			version: 1,
			description: 'Emits the items a test gives',
			defaults: { name: INPUT_NODE },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			return [deepCopy(items)];
		},
	} as INodeType;
}
