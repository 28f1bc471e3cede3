import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeTypeDescription, ICredentialType } from 'n8n-workflow';

import { createSimulator, type Simulator } from '../../../simulator/server';
import type { N8nClient } from './client';
import { repoRoot } from './paths';

export interface PackageManifest {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
}

export function packageManifest(): PackageManifest {
	return JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as PackageManifest;
}

/** Loads the built classes listed in package.json's n8n section (what n8n itself reads). */
function loadBuilt<T>(file: string): T {
	const modulePath = path.join(repoRoot, file);
	const exported = require(modulePath) as Record<string, new () => T>;
	const className = path.basename(file).replace(/\.(node|credentials)\.js$/, '');
	const Class = exported[className];
	if (!Class) throw new Error(`${file} does not export a class named ${className}`);
	return new Class();
}

export function builtNodeDescriptions(): INodeTypeDescription[] {
	return packageManifest().n8n.nodes.map((file) => {
		const node = loadBuilt<{ description?: INodeTypeDescription; nodeVersions?: unknown }>(file);
		if (!node.description)
			throw new Error(`${file}: versioned nodes are not handled by the e2e suite yet`);
		return node.description;
	});
}

export function builtCredentialTypes(): ICredentialType[] {
	return packageManifest().n8n.credentials.map((file) => loadBuilt<ICredentialType>(file));
}

/**
 * Quick callback retries (milliseconds): tests that exercise the service's 2 h / 6 h / 24 h
 * schedule configure `callbackRetry: { policy: 'service' }` with a `timeScale`.
 */
export function newSimulator(): Simulator {
	return createSimulator({ completionDelayMs: 100, callbackRetry: { policy: 'quick' } });
}

export async function startSimulator(): Promise<Simulator> {
	const simulator = newSimulator();
	await simulator.start();
	return simulator;
}

/**
 * Credential data pointing at the simulator, built from the credential's own fields so a new
 * credential type cannot be forgotten here: every URL field must be one the simulator serves and
 * every secret one it knows.
 */
export function simulatorCredentialData(
	credential: ICredentialType,
	simulator: Simulator,
	overrides: Record<string, string | number> = {},
): Record<string, string | number> {
	const urls = simulator.urls as unknown as Record<string, string>;
	const secrets: Record<string, string> = {
		apiToken: simulator.config.token,
		apiKey: simulator.config.apiKey,
	};
	const data: Record<string, string | number> = {};
	for (const property of credential.properties) {
		if (property.type === 'notice' || property.type === 'hidden') continue;
		// Settings such as Requests per Second keep the default a user would see.
		const setting = property.type === 'number' ? (property.default as number) : undefined;
		const value =
			overrides[property.name] ?? urls[property.name] ?? secrets[property.name] ?? setting;
		if (value === undefined) {
			throw new Error(
				`no simulator value for field "${property.name}" of credential ${credential.name}`,
			);
		}
		data[property.name] = value;
	}
	return data;
}

/** The credential's secret field (the one typed as a password). */
export function secretField(credential: ICredentialType): string {
	const secret = credential.properties.find((p) => p.typeOptions?.password);
	if (!secret) throw new Error(`credential ${credential.name} has no password field`);
	return secret.name;
}

export async function createSimulatorCredentials(
	client: N8nClient,
	simulator: Simulator,
	label: string,
): Promise<Record<string, { id: string; name: string }>> {
	const created: Record<string, { id: string; name: string }> = {};
	for (const credential of builtCredentialTypes()) {
		created[credential.name] = await client.createCredential(
			`${credential.displayName} (${label})`,
			credential.name,
			simulatorCredentialData(credential, simulator),
		);
	}
	return created;
}
