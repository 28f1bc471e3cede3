import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { withExpressionIsolate } from '../shared/host/internals';
import { withSecretQuery } from '../shared/incoming/trigger/delivery';
import { createSchedule, deleteSchedule, findSchedule } from '../shared/outgoing/schedule/client';
import { toNodeError } from '../shared/outgoing/transport';
import { FieldReader } from '../shared/outgoing/validation';
import { scheduleBodyFor, scheduleNameFor, triggerSettings, type TriggerState } from './schedule';
import {
	assessSchedule,
	checkCron,
	type NoticeFacts,
	scheduleNotice,
	type ScheduleCondition,
	spreadOf,
} from './scheduleHealth';

/** What this activation has told the workflow; a restart starts again from healthy. */
interface Watch {
	told: ScheduleCondition;
	startedAt: number;
	mendFailed: boolean;
	looking: boolean;
}

/**
 * Reads the trigger's schedule on a cron of its own while the workflow is published (n8n runs
 * trigger() on the leader only, and drops its crons on unpublish) and tells the workflow once per
 * change, on the Schedule Notices output.
 */
export async function watchSchedule(this: ITriggerFunctions): Promise<ITriggerResponse> {
	// A manual run's test delivery goes through execute(); a test schedule is not watched.
	if (this.getMode() === 'manual') return {};
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const frequency = String(this.getNodeParameter('frequency', 'daily'));
	const spread = spreadOf(`${this.getWorkflow().id}:${this.getNode().id}`);
	const expression = checkCron(String(options.scheduleCheck ?? 'auto'), frequency, spread);
	if (expression === null) return {};
	const mendOn = options.mendSchedule === true;
	const watch: Watch = {
		told: 'healthy',
		startedAt: Date.now(),
		mendFailed: false,
		looking: false,
	};
	const look = async () => {
		// A slow read is never overlapped by the next tick.
		if (watch.looking) return;
		watch.looking = true;
		try {
			await withExpressionIsolate(
				this,
				async () => await lookOnce.call(this, watch, frequency, mendOn),
			);
		} catch (error) {
			const reason = toNodeError(this.getNode(), error, 0);
			const detail = reason.description ? ` (${reason.description})` : '';
			this.logger.warn(
				`Recurring Reviews Trigger could not read its schedule: ${reason.message}${detail}. It looks again at its next check.`,
			);
		} finally {
			watch.looking = false;
		}
	};
	this.helpers.registerCron({ expression }, async () => await look());
	// At activation too, as checkExists's read of the schedule is: after a restart, a schedule that
	// stopped while n8n was down is told at once.
	await look();
	return {};
}

async function lookOnce(
	this: ITriggerFunctions,
	watch: Watch,
	frequency: string,
	mendOn: boolean,
): Promise<void> {
	const state = this.getWorkflowStaticData('node') as TriggerState;
	const scheduleId = state.scheduleId;
	if (!scheduleId) return;
	const schedule = await findSchedule.call(this, scheduleId);
	const watchedSince = Date.parse(state.createdAt ?? '') || watch.startedAt;
	const condition = assessSchedule(schedule, frequency, Date.now(), watchedSince);
	const mendable = mendOn && (condition === 'disabled' || condition === 'gone');
	if (condition === watch.told && !(mendable && watch.mendFailed)) return;
	const facts: NoticeFacts = {
		condition,
		previous: watch.told,
		scheduleId,
		schedule,
		frequency,
		noticedAt: new Date(),
		mendOn,
	};
	if (mendable) {
		facts.mended = await mend.call(this, state, schedule !== undefined);
		const failed = 'error' in facts.mended;
		// A mend that failed again is not news: the first notice said so.
		if (failed && watch.mendFailed && condition === watch.told) return;
		watch.mendFailed = failed;
	}
	watch.told = condition;
	this.emit([[], [{ json: scheduleNotice(facts) }]]);
}

/**
 * A new schedule with the trigger's settings, its webhook URL and its secret, so deliveries go on
 * as before; then the old one, if it still exists, is deleted (after, so a refused create keeps
 * it). The new id is saved with the emitted notice.
 */
async function mend(
	this: ITriggerFunctions,
	state: TriggerState,
	oldStillExists: boolean,
): Promise<{ scheduleId: number } | { error: string }> {
	const oldId = state.scheduleId;
	try {
		if (!state.callbackBase || !state.secret) throw new Error('the trigger holds no webhook URL');
		const body = scheduleBodyFor(
			new FieldReader(this.getNode(), 0),
			triggerSettings(this),
			withSecretQuery(state.callbackBase, state.secret),
			scheduleNameFor(this.getWorkflow()),
		);
		const created = await createSchedule.call(this, body);
		state.scheduleId = Number(created.schedule_id);
		state.createdAt = new Date().toISOString();
	} catch (error) {
		return { error: toNodeError(this.getNode(), error, 0).message };
	}
	if (oldStillExists && oldId) {
		try {
			await deleteSchedule.call(this, oldId);
		} catch (error) {
			this.logger.warn(
				`Recurring Reviews Trigger could not delete its disabled schedule ${oldId}: ${toNodeError(this.getNode(), error, 0).message}`,
			);
		}
	}
	return { scheduleId: state.scheduleId };
}
