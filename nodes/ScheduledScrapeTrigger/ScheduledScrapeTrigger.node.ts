import { randomBytes } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { scrapingApiTest } from '../shared/outgoing/credentialTest';
import { refuseUnreachableCallbacks } from '../shared/outgoing/callbackReachability';
import {
	createSchedule,
	deleteSchedule,
	findSchedule,
	scheduleRequests,
} from '../shared/outgoing/schedule/client';
import { toNodeError } from '../shared/outgoing/transport';
import {
	deliveryWebhook,
	receiveDelivery,
	withSecretQuery,
} from '../shared/incoming/trigger/delivery';
import { readDeliveryOptions } from '../shared/incoming/trigger/options';
import { scheduledTriggerPanel } from '../shared/incoming/trigger/panel';
import { FieldReader } from '../shared/outgoing/validation';
import { FREQUENCY_OPTIONS } from '../shared/outgoing/schedule/scheduleOptions';
import { COLLECT_OPTIONS, properties } from './description';
import { scheduleBodyFor, scheduleNameFor, triggerSettings, type TriggerState } from './schedule';
import { watchSchedule } from './watcher';

/** An expression that shows a parameter's option name. */
const labelOf = (options: Array<{ name: string; value: string }>, parameter: string) =>
	`(${JSON.stringify(Object.fromEntries(options.map(({ name, value }) => [value, name])))})[$parameter["${parameter}"]]`;

export class ScheduledScrapeTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Recurring Reviews Trigger',
		name: 'scheduledScrapeTrigger',
		icon: {
			light: 'file:../../icons/scheduledScrapeTrigger.svg',
			dark: 'file:../../icons/scheduledScrapeTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		// The options' names, not their values ("Daily: One Review Profile", not "daily profile").
		subtitle: `={{ ${labelOf(FREQUENCY_OPTIONS, 'frequency')} + ": " + ${labelOf(COLLECT_OPTIONS, 'collect')} }}`,
		description:
			'Starts the workflow with new reviews every day, week or month: creates its own collection schedule on the service while the workflow is active',
		defaults: { name: 'Recurring Reviews Trigger' },
		inputs: [],
		// Notices about the schedule leave apart from deliveries: a workflow built on the deliveries
		// never sees one, and one saved before the second output existed keeps working unchanged.
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Deliveries', 'Schedule Notices'],
		credentials: [{ name: 'scrapingApi', required: true, testedBy: 'scrapingApiTest' }],
		// The trigger gives the service its own URL: there is nothing for the user to paste.
		webhooks: [deliveryWebhook('scheduled', { ndvHideUrl: true })],
		triggerPanel: scheduledTriggerPanel,
		properties,
	};

	methods = { credentialTest: { scrapingApiTest } };

	webhookMethods = {
		default: {
			// A schedule that was deleted, disabled, or points at another URL (N8N_WEBHOOK_URL changed) is
			// not ours any more: report it missing so n8n creates a fresh one.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const state = this.getWorkflowStaticData('node') as TriggerState;
				if (!state.scheduleId) return false;
				const schedule = await findSchedule.call(this, state.scheduleId);
				// A disabled one is kept, for the watcher to tell, unless the user asked to mend it.
				const mendOn = (this.getNodeParameter('options', {}) as IDataObject).mendSchedule === true;
				const usable =
					schedule !== undefined &&
					(schedule.disabled !== true || !mendOn) &&
					state.callbackBase === this.getNodeWebhookUrl('default');
				if (!usable) await forgetSchedule.call(this, state, schedule !== undefined);
				return usable;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const state = this.getWorkflowStaticData('node') as TriggerState;
				const webhookUrl = this.getNodeWebhookUrl('default') as string;
				const secret = randomBytes(24).toString('hex');
				const callback = withSecretQuery(webhookUrl, secret);
				const body = scheduleBodyFor(
					new FieldReader(this.getNode(), 0),
					triggerSettings(this),
					callback,
					scheduleNameFor(this.getWorkflow()),
				);
				// Its deliveries are this trigger's webhook calls: a schedule they cannot reach would run,
				// and bill, every day for nothing.
				await refuseUnreachableCallbacks.call(this, scheduleRequests.create(body), 0, {
					field: "The trigger's webhook URL",
				});
				const schedule = await createSchedule.call(this, body);
				state.scheduleId = Number(schedule.schedule_id);
				state.secret = secret;
				state.callbackBase = webhookUrl;
				state.createdAt = new Date().toISOString();
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				await forgetSchedule.call(this, this.getWorkflowStaticData('node') as TriggerState, true);
				return true;
			},
		},
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await watchSchedule.call(this);
	}

	/**
	 * n8n runs a start node that has trigger() through it in a manual run, and through execute()
	 * first when there is one: this passes a test delivery, a delivery and a notice on unchanged.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData(0), this.getInputData(1) ?? []];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const state = this.getWorkflowStaticData('node') as TriggerState;
		return await receiveDelivery.call(this, {
			// Before activation stored a secret, no delivery can be this trigger's.
			secret: { expected: state.secret ?? '', location: 'query' },
			kinds: [],
			...readDeliveryOptions.call(this),
			memory: state,
			extraFields: { scheduleId: state.scheduleId },
		});
	}
}

/**
 * Forgets the stored schedule, and deletes it on the service when it may still exist, whatever
 * the service answers: a stored id that cannot be deleted would otherwise fail every later
 * activation. A failed delete is logged, as the schedule may still exist on the service.
 */
async function forgetSchedule(
	this: IHookFunctions,
	state: TriggerState,
	mayExist: boolean,
): Promise<void> {
	const scheduleId = state.scheduleId;
	delete state.scheduleId;
	delete state.secret;
	delete state.callbackBase;
	// The memory of the old schedule's deliveries goes with it (n8n 1.x kept it in the static data
	// of a deactivated workflow).
	delete state.recentDeliveries;
	delete state.createdAt;
	delete state.toldCondition;
	delete state.toldScheduleId;
	delete state.unreadableTold;
	if (!scheduleId || !mayExist) return;
	try {
		await deleteSchedule.call(this, scheduleId);
	} catch (error) {
		const reason = toNodeError(this.getNode(), error, 0);
		this.logger.warn(
			`Recurring Reviews Trigger could not delete schedule ${scheduleId}: ${reason.message}. It is forgotten here; if it still exists, delete it with the Scraping Scheduler node.`,
			{ scheduleId, httpCode: (reason as { httpCode?: string | null }).httpCode ?? undefined },
		);
	}
}
