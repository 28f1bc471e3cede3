/**
 * Callback delivery. By default as the service does it (docs/service-facts.md#callback-retries): a
 * delivery not answered 2xx is retried 2, 6 and 24 hours after the first failure, on the
 * simulator's compressible clock (`timeScale`). The `quick` policy retries within milliseconds on
 * 409 (what n8n answers a callback that reaches a waiting webhook too early), 5xx and network
 * errors.
 */
import { Agent, request } from 'undici';

import type { CallbackKindName } from '../nodes/shared/endpoints';
import type { CallbackRetryOptions } from './config';
import { cachingLookup } from './lookup';

/** The endpoint table's name of a callback's kind, as the triggers' `kind` gives it. */
export type PayloadKind = CallbackKindName;

export interface DeliveryAttempt {
	/** When the POST was sent (after any pacing). */
	sentAt: string;
	/** When it was answered, or failed. */
	at: string;
	status: number | null;
	error: string | null;
}

export interface DeliveryRecord {
	seq: number;
	kind: PayloadKind;
	url: string;
	/** job_id or request_id the payload is about. */
	ref: string | number | null;
	payload: unknown;
	state: 'pending' | 'delivered' | 'failed' | 'cancelled';
	attempts: number;
	finalStatus: number | null;
	error: string | null;
	attemptLog: DeliveryAttempt[];
	startedAt: string;
	finishedAt: string | null;
	/** When the next attempt is due (real clock), while one is scheduled. */
	nextAttemptAt: string | null;
}

export interface RetrySettings {
	retry: CallbackRetryOptions;
	timeScale: number;
	/** Attempts started per second at most; null: no pacing. */
	callbackRate: number | null;
	/** Attempts awaiting their answer at one time at most; null: no bound. */
	callbackConcurrency: number | null;
}

const isFinished = (record: DeliveryRecord) =>
	record.state === 'delivered' || record.state === 'failed';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal.removeEventListener('abort', done);
			resolve();
		}
		signal.addEventListener('abort', done, { once: true });
	});
}

export function backoffDelay(attempt: number, retry: CallbackRetryOptions): number {
	const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export class CallbackDeliverer {
	private records: DeliveryRecord[] = [];
	private nextSeq = 1;
	private readonly inFlight = new Set<AbortController>();
	private readonly waiters = new Map<() => void, (error: Error) => void>();
	private nextSlotAt = 0;
	private attemptsInFlight = 0;
	private readonly waitingForTurn: Array<() => void> = [];
	private readonly agent = new Agent({
		connect: { timeout: 5_000, lookup: cachingLookup() },
		keepAliveTimeout: 1_000,
	});

	constructor(private readonly settings: () => RetrySettings) {}

	deliver(url: string, payload: unknown, kind: PayloadKind, ref: string | number | null) {
		const record: DeliveryRecord = {
			seq: this.nextSeq++,
			kind,
			url,
			ref,
			payload,
			state: 'pending',
			attempts: 0,
			finalStatus: null,
			error: null,
			attemptLog: [],
			startedAt: new Date().toISOString(),
			finishedAt: null,
			nextAttemptAt: null,
		};
		this.records.push(record);
		const controller = new AbortController();
		this.inFlight.add(controller);
		void this.run(record, controller.signal).finally(() => {
			this.inFlight.delete(controller);
			if (record.state !== 'cancelled') record.finishedAt = new Date().toISOString();
			for (const wake of [...this.waiters.keys()]) wake();
		});
		return record;
	}

	private async run(record: DeliveryRecord, signal: AbortSignal): Promise<void> {
		const { retry, timeScale } = this.settings();
		const service = retry.policy === 'service';
		const maxAttempts = service ? retry.serviceDelaysMs.length + 1 : retry.maxAttempts;
		const body = JSON.stringify(record.payload);
		let firstFailureAt = 0;
		for (let attempt = 1; attempt <= maxAttempts; attempt++) {
			if (signal.aborted) break;
			record.attempts = attempt;
			record.nextAttemptAt = null;
			await this.paced(signal);
			await this.turn(signal);
			if (signal.aborted) {
				this.endTurn();
				break;
			}
			const sentAt = new Date().toISOString();
			const { status, error } = await this.post(record.url, body, signal).finally(() =>
				this.endTurn(),
			);
			if (signal.aborted) break;
			record.attemptLog.push({ sentAt, at: new Date().toISOString(), status, error });
			record.finalStatus = status;
			record.error = error;
			if (status !== null && status >= 200 && status < 300) {
				record.state = 'delivered';
				return;
			}
			const retryable = service || status === null || status === 409 || status >= 500;
			if (!retryable || attempt === maxAttempts) {
				record.state = 'failed';
				return;
			}
			if (attempt === 1) firstFailureAt = Date.now();
			const dueAt = service
				? firstFailureAt + retry.serviceDelaysMs[attempt - 1] * timeScale
				: Date.now() + backoffDelay(attempt, retry);
			record.nextAttemptAt = new Date(dueAt).toISOString();
			await sleep(Math.max(0, dueAt - Date.now()), signal);
		}
		record.state = 'cancelled';
	}

	/** Waits for this attempt's slot when `callbackRate` paces deliveries (slots are handed out in call order). */
	private async paced(signal: AbortSignal): Promise<void> {
		const rate = this.settings().callbackRate;
		if (!rate) return;
		const slot = Math.max(Date.now(), this.nextSlotAt);
		this.nextSlotAt = slot + 1000 / rate;
		await sleep(slot - Date.now(), signal);
	}

	/** Waits until fewer than `callbackConcurrency` attempts await their answer (first come, first served). */
	private async turn(signal: AbortSignal): Promise<void> {
		const limit = this.settings().callbackConcurrency;
		// An aborted delivery takes its place at once, to hand it back in the caller's endTurn.
		if (!limit || this.attemptsInFlight < limit || signal.aborted) {
			this.attemptsInFlight++;
			return;
		}
		await new Promise<void>((resolve) => {
			const wake = () => {
				signal.removeEventListener('abort', abandon);
				resolve();
			};
			const abandon = () => {
				const at = this.waitingForTurn.indexOf(wake);
				if (at >= 0) this.waitingForTurn.splice(at, 1);
				this.attemptsInFlight++;
				resolve();
			};
			this.waitingForTurn.push(wake);
			signal.addEventListener('abort', abandon, { once: true });
		});
	}

	/** Hands the ended attempt's place to the next one waiting for it. */
	private endTurn(): void {
		const next = this.waitingForTurn.shift();
		if (next) next();
		else this.attemptsInFlight--;
	}

	private async post(
		url: string,
		body: string,
		signal: AbortSignal,
	): Promise<{ status: number | null; error: string | null }> {
		try {
			const response = await request(url, {
				method: 'POST',
				body,
				headers: {
					'content-type': 'application/json',
					'user-agent': 'review-scraping-simulator',
				},
				dispatcher: this.agent,
				signal,
				headersTimeout: 10_000,
				bodyTimeout: 10_000,
			});
			await response.body.dump();
			return { status: response.statusCode, error: null };
		} catch (caught) {
			return { status: null, error: caught?.code ?? caught?.message ?? String(caught) };
		}
	}

	list(): DeliveryRecord[] {
		return this.records.map((record) => ({ ...record, attemptLog: [...record.attemptLog] }));
	}

	finishedCount(): number {
		return this.records.filter(isFinished).length;
	}

	/** Resolves with the log once `count` deliveries have ended (delivered or failed). */
	waitFor(count: number, timeoutMs: number): Promise<DeliveryRecord[]> {
		return new Promise((resolve, reject) => {
			const check = () => {
				if (this.finishedCount() < count) return;
				clearTimeout(timer);
				this.waiters.delete(check);
				resolve(this.list());
			};
			const timer = setTimeout(() => {
				this.waiters.delete(check);
				reject(
					new Error(
						`timed out after ${timeoutMs} ms waiting for ${count} callback deliveries (${this.finishedCount()} finished, ${this.records.length} started)`,
					),
				);
			}, timeoutMs);
			this.waiters.set(check, (error) => {
				clearTimeout(timer);
				this.waiters.delete(check);
				reject(error);
			});
			check();
		});
	}

	cancelAll(): void {
		for (const controller of this.inFlight) controller.abort();
		this.inFlight.clear();
		for (const record of this.records) if (record.state === 'pending') record.state = 'cancelled';
	}

	clear(): void {
		this.cancelAll();
		this.records = [];
		this.nextSlotAt = 0;
	}

	async close(): Promise<void> {
		this.cancelAll();
		for (const fail of [...this.waiters.values()]) fail(new Error('simulator stopped'));
		await this.agent.destroy();
	}
}
