/**
 * Callback delivery. n8n answers 409 when a callback reaches a Wait for Completion webhook before
 * the execution is saved as waiting, so 409 is retried like a 5xx or a network error.
 */
import { Agent, request } from 'undici';

import type { CallbackRetryOptions } from './config';

export type PayloadKind =
	| 'review-job'
	| 'ecommerce-search'
	| 'photo-search'
	| 'social-scrape'
	| 'video-request'
	| 'review-index';

export interface DeliveryAttempt {
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
	private readonly agent = new Agent({ connect: { timeout: 5_000 }, keepAliveTimeout: 1_000 });

	constructor(private readonly retryOptions: () => CallbackRetryOptions) {}

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
		const retry = this.retryOptions();
		const body = JSON.stringify(record.payload);
		for (let attempt = 1; attempt <= retry.maxAttempts; attempt++) {
			if (signal.aborted) break;
			record.attempts = attempt;
			let status: number | null = null;
			let error: string | null = null;
			try {
				const response = await request(record.url, {
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
				status = response.statusCode;
				await response.body.dump();
			} catch (caught) {
				error = caught?.code ?? caught?.message ?? String(caught);
			}
			if (signal.aborted) break;
			record.attemptLog.push({ at: new Date().toISOString(), status, error });
			record.finalStatus = status;
			record.error = error;
			if (status !== null && status >= 200 && status < 300) {
				record.state = 'delivered';
				return;
			}
			const retryable = status === null || status === 409 || status >= 500;
			if (!retryable || attempt === retry.maxAttempts) {
				record.state = 'failed';
				return;
			}
			await sleep(backoffDelay(attempt, retry), signal);
		}
		record.state = 'cancelled';
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
	}

	async close(): Promise<void> {
		this.cancelAll();
		for (const fail of [...this.waiters.values()]) fail(new Error('simulator stopped'));
		await this.agent.destroy();
	}
}
