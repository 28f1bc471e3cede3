import type { Simulator } from '../../../simulator/server';
import { createSimulatorCredentials, newSimulator } from './fixtures';
import { connect } from './state';
import { directSubmitter } from './submit';
import {
	activateChain,
	oneWebhookProcess,
	packageNode,
	postToWebhook,
	productionUrl,
	webhookBase,
} from './workflows';

export const CALLBACK_TRIGGER = 'Scraping Callback Trigger';

export interface E2eSuiteOptions {
	/** Creates one credential of each type pointing at the simulator, named with this label. */
	credentials?: string;
	/** Reset the simulator's jobs, faults and settings before each test (default: yes). */
	resetEachTest?: boolean;
}

/**
 * What an e2e test file needs of the running n8n (started by global setup) and of a simulator of
 * its own: call it at the top of the file, before the file's own hooks, so that the simulator is
 * started, reset and the credentials exist when those run. `simulator` and `submit` can be used
 * right away; `credentials` is filled in before the first test.
 */
export function useE2e(options: E2eSuiteOptions = {}) {
	const { client, state } = connect();
	const simulator: Simulator = newSimulator();
	const credentials: Record<string, { id: string; name: string }> = {};
	const activated = new Set<string>();

	beforeAll(async () => {
		await simulator.start();
		if (options.credentials) {
			Object.assign(
				credentials,
				await createSimulatorCredentials(client, simulator, options.credentials),
			);
		}
	});
	afterAll(() => simulator.stop());
	if (options.resetEachTest ?? true) beforeEach(() => simulator.reset());
	afterEach(async () => {
		const ids = [...activated];
		activated.clear();
		for (const id of ids) await client.deactivate(id);
	});

	/** Publishes a workflow of a Scraping Callback Trigger alone; gives its production URL. */
	/** `oneProcess`: its URL at one webhook process in queue mode (see oneWebhookProcess). */
	const activeCallbackTrigger = async (
		name: string,
		parameters: Record<string, unknown> = {},
		{ oneProcess = false } = {},
	) => {
		const node = packageNode('scrapingCallbackTrigger', CALLBACK_TRIGGER, parameters);
		const id = await activateChain(client, name, [node]);
		activated.add(id);
		const base = oneProcess ? oneWebhookProcess(state) : webhookBase(state);
		const url = productionUrl(base, node, 'callback');
		// n8n registers the production webhook a moment after activation and the service does not
		// retry a 404, so wait for it with a body the trigger refuses (400, or 401 with a secret).
		expect([400, 401]).toContain((await postToWebhook(url, {})).status);
		return { id, url };
	};

	return {
		client,
		state,
		simulator,
		credentials,
		activated,
		submit: directSubmitter(simulator),
		activeCallbackTrigger,
	};
}
