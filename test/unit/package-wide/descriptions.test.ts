import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ICredentialType, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ReviewScraperApi } from '../../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../../credentials/ScrapingApi.credentials';
import { packageNodes, repoRoot } from '../nodeClasses';

/**
 * What a saved workflow relies on in the descriptions n8n reads: the node type names and versions,
 * each parameter's name, type and default (n8n saves only the values that differ from it; notices
 * hold none), the option values it may hold and the values its display conditions name (n8n drops
 * a parameter its conditions hide). `released-descriptions.txt` records them at the last release, a
 * line each; every line must still hold, so renaming or removing any of them needs a node version
 * instead, while an addition (a new operation, a new option) needs nothing here until the next
 * release. At a release, after `version` in package.json is raised,
 * `RECORD_RELEASE=1 npx jest test/unit/package-wide/descriptions.test.ts` adds what it brings; it
 * records nothing while a line of the last release no longer holds.
 */
const recordFile = join(__dirname, 'released-descriptions.txt');
const packageVersion = (
	JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }
).version;

const json = (value: unknown) => JSON.stringify(value);

function propertyFacts(owner: string, properties: INodeProperties[], parent = ''): string[] {
	return properties.flatMap((property) => {
		if (property.type === 'notice') return [];
		const path = `${owner} ${parent}${property.name}`;
		const facts = [`${path} type ${property.type}`, `${path} default ${json(property.default)}`];
		for (const [rule, conditions] of Object.entries(property.displayOptions ?? {})) {
			for (const [key, values] of Object.entries(conditions ?? {})) {
				for (const value of [values].flat()) facts.push(`${path} ${rule} ${key} ${json(value)}`);
			}
		}
		for (const option of property.options ?? []) {
			if ('values' in option) {
				facts.push(`${path} option ${option.name}`);
				facts.push(
					...propertyFacts(owner, option.values, `${parent}${property.name}.${option.name}.`),
				);
			} else if ('type' in option) {
				facts.push(
					...propertyFacts(owner, [option as INodeProperties], `${parent}${property.name}.`),
				);
			} else {
				facts.push(`${path} option ${json(option.value)}`);
			}
		}
		return facts;
	});
}

const nodeFacts = (description: INodeTypeDescription) => [
	...[description.version].flat().map((version) => `${description.name} version ${version}`),
	...(description.credentials ?? []).map(
		(credential) => `${description.name} credential ${credential.name}`,
	),
	...propertyFacts(description.name, description.properties),
];

const credentialFacts = (credential: ICredentialType) => [
	`credential ${credential.name}`,
	...propertyFacts(`credential ${credential.name}`, credential.properties),
];

const servedNow = () =>
	[
		...new Set([
			...packageNodes.flatMap(({ node }) => nodeFacts(node.description)),
			...[new ReviewScraperApi(), new ScrapingApi()].flatMap(credentialFacts),
		]),
	].sort();

const header = (version: string) => `# n8n-nodes-review-scraping ${version}`;

const readRecord = () => readFileSync(recordFile, 'utf8').trimEnd().split('\n');
const noLongerServed = (facts: string[]) => {
	const served = new Set(servedNow());
	return facts.filter((fact) => !served.has(fact));
};

if (process.env.RECORD_RELEASE === '1') {
	const missing = noLongerServed(readRecord().slice(1));
	if (missing.length) throw new Error(`not recorded: no longer served:\n${missing.join('\n')}`);
	writeFileSync(recordFile, [header(packageVersion), ...servedNow()].join('\n') + '\n');
}

const [recordHeader, ...recorded] = readRecord();

describe('what saved workflows rely on in the descriptions, as released', () => {
	it('is recorded for the package version (RECORD_RELEASE=1 records a new release)', () => {
		expect(recordHeader).toBe(header(packageVersion));
	});

	it('still holds, line for line (a rename or removal needs a node version)', () => {
		expect(noLongerServed(recorded)).toEqual([]);
	});

	it('catches a removed option value and a changed default', () => {
		const [{ node }] = packageNodes;
		const operation = node.description.properties.find(
			(property) => property.name === 'operation' && property.options?.length,
		)!;
		const changed: INodeTypeDescription = {
			...node.description,
			properties: node.description.properties.map((property) =>
				property === operation
					? { ...property, default: 'renamed', options: property.options!.slice(1) }
					: property,
			),
		};
		const served = new Set(nodeFacts(changed));
		const missing = recorded.filter(
			(fact) => fact.startsWith(`${node.description.name} operation `) && !served.has(fact),
		);
		expect(missing).toEqual(
			expect.arrayContaining([
				`${node.description.name} operation default ${json(operation.default)}`,
				`${node.description.name} operation option ${json((operation.options![0] as { value: unknown }).value)}`,
			]),
		);
	});
});
