import { randomBytes } from 'node:crypto';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';

import { scrapingApiTest } from '../shared/credentialTest';
import { toNodeError } from '../shared/operations';
import { apiRequest } from '../shared/transport';
import { receiveDelivery } from '../shared/trigger/delivery';
import { readDeliveryOptions } from '../shared/trigger/options';
import type { DeliveryMemory } from '../shared/trigger/recentDeliveries';
import { withSecretQuery } from '../shared/trigger/secret';
import { scheduledTriggerPanel } from '../shared/trigger/panel';
import { deliveryWebhook } from '../shared/trigger/webhook';
import { FieldReader } from '../shared/validation';
import { properties } from './description';
import { schedulePayloadFor, type TriggerSettings } from './schedulePlan';

interface TriggerState extends DeliveryMemory {
	scheduleId?: number;
	secret?: string;
	callbackBase?: string;
}

function settingsOf(context: IHookFunctions): TriggerSettings {
	const parameter = (name: string, fallback: unknown = '') =>
		context.getNodeParameter(name, fallback) as never;
	return {
		collect: parameter('collect', 'profile'),
		frequency: parameter('frequency', 'daily'),
		url: parameter('url'),
		query: parameter('query'),
		placeId: parameter('placeId'),
		blocks: parameter('blocks', undefined),
		externalIdentifier: parameter('externalIdentifier'),
		profiles: parameter('profiles', '[]'),
		reviewIndexEndpoint: parameter('reviewIndexEndpoint', 'profiles'),
		reviewIndexParameters: parameter('reviewIndexParameters', '{}'),
	};
}

/**
 * Whether the service says the stored schedule does not exist or cannot be read with this key:
 * 404, 403 (the spec's "Errors": access not allowed), or a 400 whose message or details name
 * the schedule (the production service answers a bad request with 400). Either way the schedule is
 * not this trigger's to use any more.
 */
function isNotFound(error: unknown, scheduleId: number): boolean {
	if (!(error instanceof NodeApiError)) return false;
	if (error.httpCode === '404' || error.httpCode === '403') return true;
	if (error.httpCode !== '400') return false;
	// The description also names the request path, and with it the id: only the service's words count.
	const body = (error as { errorResponse?: IDataObject }).errorResponse ?? {};
	const said = `${String(body.message ?? '')} ${String(body.details ?? '')}`;
	return new RegExp(`(^|\\D)${scheduleId}(\\D|$)`).test(said);
}

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
		subtitle: '={{$parameter["frequency"] + " " + $parameter["collect"]}}',
		description:
			'Starts the workflow with new reviews every day, week or month: creates its own collection schedule on the service while the workflow is active',
		defaults: { name: 'Recurring Reviews Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'scrapingApi', required: true, testedBy: 'scrapingApiTest' }],
		// The trigger gives the service its own URL: there is nothing for the user to paste.
		webhooks: [deliveryWebhook('scheduled', { ndvHideUrl: true })],
		triggerPanel: scheduledTriggerPanel,
		properties,
	};

	methods = { credentialTest: { scrapingApiTest } };

	webhookMethods = {
		default: {
			// A schedule that was deleted, disabled, or points at another URL (WEBHOOK_URL changed) is
			// not ours any more: report it missing so n8n creates a fresh one.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const state = this.getWorkflowStaticData('node') as TriggerState;
				if (!state.scheduleId) return false;
				try {
					const response = (await apiRequest.call(this, {
						api: 'scheduling',
						method: 'GET',
						path: `/schedules/${state.scheduleId}`,
					})) as IDataObject;
					const [schedule] = (response.results as IDataObject[]) ?? [];
					const usable =
						schedule !== undefined &&
						schedule.disabled !== true &&
						state.callbackBase === this.getNodeWebhookUrl('default');
					if (!usable) await deleteSchedule.call(this, state);
					return usable;
				} catch (error) {
					if (!isNotFound(error, state.scheduleId)) throw toNodeError(this.getNode(), error, 0);
					delete state.scheduleId;
					delete state.secret;
					delete state.callbackBase;
					return false;
				}
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const state = this.getWorkflowStaticData('node') as TriggerState;
				const webhookUrl = this.getNodeWebhookUrl('default') as string;
				const secret = randomBytes(24).toString('hex');
				const callback = withSecretQuery(webhookUrl, secret);
				const workflow = this.getWorkflow();
				const body = schedulePayloadFor(
					new FieldReader(this.getNode(), 0),
					settingsOf(this),
					callback,
					`n8n: ${workflow.name ?? workflow.id}`.slice(0, 100),
				);
				const response = (await apiRequest.call(this, {
					api: 'scheduling',
					method: 'POST',
					path: '/schedules',
					body,
				})) as IDataObject;
				const [schedule] = (response.results as IDataObject[]) ?? [];
				state.scheduleId = Number(schedule?.schedule_id);
				state.secret = secret;
				state.callbackBase = webhookUrl;
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				await deleteSchedule.call(this, this.getWorkflowStaticData('node') as TriggerState);
				return true;
			},
		},
	};

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
 * Forgets the stored schedule whatever the service answers: a stored id that cannot be deleted
 * would otherwise fail every later activation. A failed delete is logged, as the schedule may
 * still exist on the service.
 */
async function deleteSchedule(this: IHookFunctions, state: TriggerState): Promise<void> {
	const scheduleId = state.scheduleId;
	delete state.scheduleId;
	delete state.secret;
	delete state.callbackBase;
	// The memory of the old schedule's deliveries goes with it (n8n 1.x kept it in the static data
	// of a deactivated workflow).
	delete state.recentDeliveries;
	if (!scheduleId) return;
	try {
		await apiRequest.call(this, {
			api: 'scheduling',
			method: 'DELETE',
			path: `/schedules/${scheduleId}`,
		});
	} catch (error) {
		// Already gone is what deleting wanted.
		if (isNotFound(error, scheduleId)) return;
		const reason = toNodeError(this.getNode(), error, 0);
		this.logger.warn(
			`Recurring Reviews Trigger could not delete schedule ${scheduleId}: ${reason.message}. It is forgotten here; if it still exists, delete it with the Scraping Scheduler node.`,
			{ scheduleId, httpCode: (reason as NodeApiError).httpCode ?? undefined },
		);
	}
}
