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
	isRefusedKey,
	type NoticeFacts,
	readableNotice,
	scheduleNotice,
	type ScheduleCondition,
	silenceAllowedMs,
	spreadOf,
	unreadableNotice,
} from './scheduleHealth';

/** What one activation keeps in memory; what was told lives in the static data (TriggerState). */
interface Watch {
	startedAt: number;
	looking: boolean;
	/** When reads began to fail, while they fail; a restart counts again from its first failure. */
	failingSince?: number;
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
	const watch: Watch = { startedAt: Date.now(), looking: false };
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
			this.logger.warn(
				`Recurring Reviews Trigger could not look at its schedule: ${reason.message}`,
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

/** The condition last told about this schedule: none (healthy) for another one. */
function toldCondition(state: TriggerState, scheduleId: number): ScheduleCondition {
	return state.toldScheduleId === scheduleId && state.toldCondition
		? (state.toldCondition as ScheduleCondition)
		: 'healthy';
}

/**
 * Kept in the static data, which n8n saves when the trigger emits (so every change here comes
 * with a notice): after a restart a problem already told is not told again.
 */
function setTold(state: TriggerState, scheduleId: number, condition: ScheduleCondition): void {
	if (condition === 'healthy') {
		delete state.toldCondition;
		delete state.toldScheduleId;
		return;
	}
	state.toldCondition = condition;
	state.toldScheduleId = scheduleId;
}

function notify(this: ITriggerFunctions, notice: IDataObject): void {
	this.emit([[], [{ json: notice }]]);
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
	let schedule: IDataObject | undefined;
	try {
		schedule = await findSchedule.call(this, scheduleId);
	} catch (error) {
		readFailed.call(this, watch, state, error, scheduleId, frequency);
		return;
	}
	delete watch.failingSince;
	const watchedSince = Date.parse(state.createdAt ?? '') || watch.startedAt;
	const condition = assessSchedule(schedule, frequency, Date.now(), watchedSince);
	if (state.unreadableTold) {
		delete state.unreadableTold;
		notify.call(
			this,
			readableNotice({ condition, scheduleId, schedule, frequency, noticedAt: new Date() }),
		);
	}
	const told = toldCondition(state, scheduleId);
	const facts: NoticeFacts = {
		condition,
		previous: told,
		scheduleId,
		schedule,
		frequency,
		noticedAt: new Date(),
		mendOn,
	};
	if (mendOn && (condition === 'disabled' || condition === 'gone')) {
		facts.mended = await mend.call(this, state, schedule !== undefined);
		if ('error' in facts.mended) {
			// A mend that failed again is not news: the first notice said so.
			if (condition === told) return;
			setTold(state, scheduleId, condition);
		} else {
			// The notice of the mend is the only one: the new schedule starts healthy, unannounced.
			setTold(state, facts.mended.scheduleId, 'healthy');
		}
		notify.call(this, scheduleNotice(facts));
		return;
	}
	if (condition === told) return;
	setTold(state, scheduleId, condition);
	notify.call(this, scheduleNotice(facts));
}

/**
 * Logs a failed read, and tells once that the trigger cannot look: at once when the key is
 * refused, else when reads have failed for longer than the schedule may go silent.
 */
function readFailed(
	this: ITriggerFunctions,
	watch: Watch,
	state: TriggerState,
	error: unknown,
	scheduleId: number,
	frequency: string,
): void {
	const reason = toNodeError(this.getNode(), error, 0);
	const detail = reason.description ? ` (${reason.description})` : '';
	this.logger.warn(
		`Recurring Reviews Trigger could not read its schedule: ${reason.message}${detail}. It looks again at its next check.`,
	);
	const now = Date.now();
	watch.failingSince ??= now;
	if (state.unreadableTold) return;
	const httpCode = (reason as { httpCode?: string | null }).httpCode ?? null;
	if (!isRefusedKey(httpCode) && now - watch.failingSince <= silenceAllowedMs(frequency)) return;
	state.unreadableTold = true;
	notify.call(
		this,
		unreadableNotice({
			scheduleId,
			frequency,
			serviceMessage: reason.message,
			details: reason.description ?? null,
			httpCode,
			failingSince: new Date(watch.failingSince),
			noticedAt: new Date(now),
		}),
	);
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
