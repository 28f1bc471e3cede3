import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { backoffDelay } from '../../simulator/callbacks';
import type { Simulator } from '../../simulator/server';
import {
	call,
	closedPort,
	eventually,
	type Receiver,
	sleep,
	startReceiver,
	startSimulator,
} from './helpers';

let sim: Simulator;
const receivers: Receiver[] = [];

beforeAll(async () => {
	sim = await startSimulator({ completionDelayMs: 5, callbackRetry: { maxAttempts: 4 } });
});
afterAll(async () => {
	await sim.stop();
	await Promise.all(receivers.map((r) => r.stop()));
});
beforeEach(() => sim.reset());

async function receiver(answer: (n: number) => number) {
	const started = await startReceiver(answer);
	receivers.push(started);
	return started;
}

const scrape = (callbackUrl: string, on = sim) =>
	call(on, 'POST social /v1/scrape', {
		body: { callback_url: callbackUrl, url: 'https://social.example/p/1' },
	});

describe('callback delivery', () => {
	it('retries 409 (execution not yet waiting) and stops at the first 2xx', async () => {
		const target = await receiver((n) => (n <= 2 ? 409 : 200));
		await scrape(target.url);
		const [delivery] = await sim.waitForDeliveries(1, 3000);
		expect(delivery.state).toBe('delivered');
		expect(delivery.attempts).toBe(3);
		expect(delivery.attemptLog.map((a) => a.status)).toEqual([409, 409, 200]);
		expect(delivery.finalStatus).toBe(200);
		expect(target.received).toHaveLength(3);
		expect(target.received[2].body).toEqual(target.received[0].body);
		expect(target.received[0].headers['content-type']).toBe('application/json');
	});

	it.each([
		['gives up after maxAttempts when the receiver always answers 5xx', 500, 4],
		['does not retry a 4xx other than 409', 404, 1],
	])('%s', async (_name, status, attempts) => {
		const target = await receiver(() => status);
		await scrape(target.url);
		const [delivery] = await sim.waitForDeliveries(1, 3000);
		expect(delivery).toMatchObject({ state: 'failed', attempts, finalStatus: status });
		expect(target.received).toHaveLength(attempts);
	});

	it('retries network errors up to maxAttempts', async () => {
		sim.configure({ callbackRetry: { maxAttempts: 3 } });
		await scrape(`http://127.0.0.1:${await closedPort()}/hook`);
		const [delivery] = await sim.waitForDeliveries(1, 3000);
		expect(delivery).toMatchObject({ state: 'failed', attempts: 3, finalStatus: null });
		expect(delivery.error).toBe('ECONNREFUSED');
	});

	it('holds jobs until released, then delivers them all, paced to callbackRate', async () => {
		const target = await receiver(() => 200);
		sim.configure({ holdCompletion: true, callbackRate: 20 });
		for (let i = 0; i < 4; i++) await scrape(target.url);
		await sleep(50);
		expect(sim.deliveries()).toHaveLength(0);

		const releasedAt = Date.now();
		const released = await call(sim, 'POST control /jobs/release');
		expect(released.body).toEqual({ released: 4 });
		const deliveries = await sim.waitForDeliveries(4, 3000);
		expect(deliveries.map((d) => d.state)).toEqual(Array(4).fill('delivered'));
		const sent = deliveries.map((d) => Date.parse(d.attemptLog[0].sentAt)).sort((a, b) => a - b);
		// 20 per second: the i-th no earlier than 50 ms × i after the release (a late timer can
		// bring two closer together, never one before its slot).
		sent.forEach((at, i) => expect(at - releasedAt).toBeGreaterThanOrEqual(50 * i - 2));
		expect(sim.releaseHeldJobs()).toBe(0);
	});

	it('keeps at most callbackConcurrency attempts awaiting an answer', async () => {
		let open = 0;
		let peak = 0;
		let answered = 0;
		const server = createServer((req, res) => {
			open++;
			peak = Math.max(peak, open);
			req.resume();
			req.on('end', () =>
				setTimeout(() => {
					open--;
					answered++;
					res.writeHead(200).end('{}');
				}, 40),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
			sim.configure({ holdCompletion: true, callbackConcurrency: 2 });
			for (let i = 0; i < 6; i++) await scrape(url);
			expect(sim.releaseHeldJobs()).toBe(6);
			const deliveries = await sim.waitForDeliveries(6, 3000);
			expect(deliveries.every((d) => d.state === 'delivered')).toBe(true);
			expect(answered).toBe(6);
			expect(peak).toBeLessThanOrEqual(2);
			expect(peak).toBeGreaterThan(0);
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});

	it('waitForDeliveries rejects when too few deliveries end in time', async () => {
		await expect(sim.waitForDeliveries(1, 50)).rejects.toThrow(/timed out after 50 ms/);
	});

	it('reset cancels pending deliveries', async () => {
		const target = await receiver(() => 503);
		sim.configure({ callbackRetry: { maxAttempts: 50, baseDelayMs: 200, maxDelayMs: 200 } });
		await scrape(target.url);
		await eventually(() => target.received.length > 0);
		sim.reset();
		await sleep(300);
		expect(target.received).toHaveLength(1);
		expect(sim.deliveries()).toEqual([]);
	});
});

describe('the service retry schedule (the default policy)', () => {
	/** A simulator on the service's policy where 1 simulated hour is 20 real ms. */
	async function withServicePolicy(test: (scaled: typeof sim) => Promise<void>) {
		const scaled = await startSimulator({ completionDelayMs: 5, timeScale: 20 / 3_600_000 });
		try {
			scaled.configure({ callbackRetry: { policy: 'service' } });
			await test(scaled);
		} finally {
			await scaled.stop();
		}
	}

	it('is the default: 2, 6 and 24 hours after the first failure, on any non-2xx, then gives up', () =>
		withServicePolicy(async (scaled) => {
			const hour = 3_600_000;
			expect(scaled.config.callbackRetry.serviceDelaysMs).toEqual([2 * hour, 6 * hour, 24 * hour]);
			await scrape((await receiver(() => 404)).url, scaled);
			const [delivery] = await scaled.waitForDeliveries(1, 5000);
			expect(delivery).toMatchObject({ state: 'failed', attempts: 4, finalStatus: 404 });
			const times = delivery.attemptLog.map((attempt) => Date.parse(attempt.at));
			const sinceFirst = times.map((at) => at - times[0]);
			// 2 h, 6 h and 24 h are 40, 120 and 480 ms. Each retry is due at its offset from the first
			// failure, never before it. The stamps are Date.now() milliseconds and Node's timers run on
			// another clock: one may read up to 2 ms short (it read 39 under load).
			expect(sinceFirst[1]).toBeGreaterThanOrEqual(40 - 2);
			expect(sinceFirst[2]).toBeGreaterThanOrEqual(120 - 2);
			expect(sinceFirst[3]).toBeGreaterThanOrEqual(480 - 2);
			expect(sinceFirst[3]).toBeLessThan(480 + 1000);
		}));

	it('an unconfigured simulator uses it, in real hours', async () => {
		const { createSimulator } = await import('../../simulator/server');
		const plain = createSimulator();
		expect(plain.config.callbackRetry.policy).toBe('service');
		expect(plain.config.timeScale).toBe(1);
	});

	it('stops at the first 2xx and says when the next attempt was due', () =>
		withServicePolicy(async (scaled) => {
			await scrape((await receiver((n) => (n === 1 ? 409 : 200))).url, scaled);
			const [delivery] = await scaled.waitForDeliveries(1, 3000);
			expect(delivery.attemptLog.map((attempt) => attempt.status)).toEqual([409, 200]);
			expect(delivery.nextAttemptAt).toBeNull();
		}));
});

describe('backoffDelay', () => {
	const retry = {
		policy: 'quick' as const,
		serviceDelaysMs: [],
		maxAttempts: 8,
		baseDelayMs: 100,
		maxDelayMs: 1000,
	};

	it('grows exponentially with jitter between half and all of the ceiling, capped by maxDelayMs', () => {
		for (let i = 0; i < 50; i++) {
			for (const [attempt, low, high] of [
				[1, 50, 100],
				[3, 200, 400],
				[10, 500, 1000],
			]) {
				const delay = backoffDelay(attempt, retry);
				expect(delay).toBeGreaterThanOrEqual(low);
				expect(delay).toBeLessThanOrEqual(high);
			}
		}
	});
});
