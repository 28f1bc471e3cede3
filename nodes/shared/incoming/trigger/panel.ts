import type { TriggerPanelDefinition } from 'n8n-workflow';

const OPERATIONS =
	'Review Scraper → Profile → Add, E-Commerce Search → Product → Search, Social Scraper → Photo Post → Search or Social Post → Scrape';

/**
 * What the Callback Trigger's test panel says instead of n8n's "go to … and create an event":
 * a test event is a real delivery to the Test URL, which only an operation run by hand sends.
 */
export const callbackTriggerPanel: TriggerPanelDefinition = {
	header: "To test: use this node's Test URL as the Callback URL of an operation",
	executionsHelp: {
		inactive: `<b>The service calls these URLs from the internet</b>: if they start with localhost or a private address, set n8n's <code>N8N_WEBHOOK_URL</code> (<code>WEBHOOK_URL</code> on n8n 1.x) to n8n's public address first.<br /><br /><b>While building your workflow</b>, click the button above, copy the <b>Test URL</b> from Webhook URLs (top of the parameters) and paste it as the <b>Callback URL</b> of an operation you run by hand in another workflow: ${OPERATIONS}. n8n listens for 2 minutes: use a small job so the service delivers in time.<br /><br /><b>Once it works</b>, paste the <b>Production URL</b> instead and publish this workflow: every delivery then starts it, and the executions show up in the <a data-key="executions">executions list</a>.`,
		active: `<b>This workflow is published</b>: every delivery to the <b>Production URL</b> starts it; the executions show up in the <a data-key="executions">executions list</a>.<br /><br /><b>To see one here</b>, click the button above and run an operation by hand (${OPERATIONS}) with the <b>Test URL</b> as its Callback URL.`,
	},
	activationHint: {
		inactive:
			'Click the button, then run an operation by hand with the Test URL as its Callback URL: its result arrives here when the service delivers it. Once published, deliveries to the Production URL start the workflow.',
		active:
			'Published: deliveries to the Production URL start the workflow (see Executions). Here you see only deliveries to the Test URL.',
	},
};

/**
 * What the Recurring Reviews Trigger's test panel says: only a run of its schedule sends an event,
 * and the service cannot run a schedule on demand.
 */
export const scheduledTriggerPanel: TriggerPanelDefinition = {
	header: 'A test event comes only when the schedule runs',
	executionsHelp: {
		inactive:
			'<b>Listening</b> creates a schedule that delivers to this node\'s test address and deletes it when listening stops. The service runs schedules daily, weekly or monthly and cannot run one now, while n8n listens for 2 minutes, so a test event rarely arrives.<br /><br /><b>To get an event of the same shape now</b>, queue the same profile once by hand: Review Scraper → Profile → Add with the Callback URL set to the Test URL of a Scraping Callback Trigger (its items carry the same kind, id, outcome and payload). Or publish this workflow and open the first run from the <a data-key="executions">executions list</a>.',
		active:
			'<b>This workflow is published</b>: its schedule exists on the service, and each run starts the workflow; the executions show up in the <a data-key="executions">executions list</a>. The service cannot run a schedule on demand: to see a delivery now, queue the same profile once with Review Scraper → Profile → Add and a Scraping Callback Trigger\'s Test URL as its Callback URL.',
	},
	activationHint: {
		inactive:
			"The service cannot run a schedule now. To see a delivery of the same shape, queue the same profile once with Review Scraper → Profile → Add, its Callback URL set to a Scraping Callback Trigger's Test URL; or publish and wait for the first run.",
		active:
			'Published: each run of the schedule starts the workflow (see Executions). The service cannot run a schedule on demand.',
	},
};
