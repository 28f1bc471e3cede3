import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8nClient, type Owner } from './client';
import { artifactsDir } from './paths';

/** What global setup hands to the test files (they run in other module registries). */
export interface SuiteState {
	n8nUrl: string;
	apiKey: string;
	session: { browserId: string; cookie: string };
	owner: Owner;
	userFolder: string;
	logFile: string;
	tarball: string;
}

export const stateFile = path.join(artifactsDir, 'e2e', 'state.json');

export function readState(): SuiteState {
	try {
		return JSON.parse(readFileSync(stateFile, 'utf8')) as SuiteState;
	} catch {
		throw new Error(
			`no running n8n (${stateFile} missing): run the suite with "npm run test:e2e", whose global setup starts it`,
		);
	}
}

/** A client already logged in (REST) and carrying the API key (public API). */
export function connect(): { client: N8nClient; state: SuiteState } {
	const state = readState();
	const client = new N8nClient(state.n8nUrl);
	client.apiKey = state.apiKey;
	client.useSession(state.session);
	return { client, state };
}
