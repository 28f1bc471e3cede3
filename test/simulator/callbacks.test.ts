import { backoffDelay } from '../../simulator/callbacks';
import type { Simulator } from '../../simulator/server';
import { closedPort, http, keyAuth, type Receiver, startReceiver, startSimulator } from './helpers';

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

const scrape = (callbackUrl: string) =>
	http('POST', `${sim.urls.socialScraperUrl}/v1/scrape`, {
		headers: keyAuth(sim),
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

	it('gives up after maxAttempts when the receiver always answers 5xx', async () => {
		const target = await receiver(() => 500);
		await scrape(target.url);
		const [delivery] = await sim.waitForDeliveries(1, 3000);
		expect(delivery).toMatchObject({ state: 'failed', attempts: 4, finalStatus: 500 });
		expect(target.received).toHaveLength(4);
	});

	it('does not retry a 4xx other than 409', async () => {
		const target = await receiver(() => 404);
		await scrape(target.url);
		const [delivery] = await sim.waitForDeliveries(1, 3000);
		expect(delivery).toMatchObject({ state: 'failed', attempts: 1, finalStatus: 404 });
		expect(target.received).toHaveLength(1);
	});

	it('retries network errors up to maxAttempts', async () => {
		sim.configure({ callbackRetry: { maxAttempts: 3 } });
		await scrape(`http://127.0.0.1:${await closedPort()}/hook`);
		const [delivery] = await sim.waitForDeliveries(1, 3000);
		expect(delivery).toMatchObject({ state: 'failed', attempts: 3, finalStatus: null });
		expect(delivery.error).toBe('ECONNREFUSED');
	});

	it('waitForDeliveries rejects when too few deliveries end in time', async () => {
		await expect(sim.waitForDeliveries(1, 50)).rejects.toThrow(/timed out after 50 ms/);
	});

	it('reset cancels pending deliveries', async () => {
		const target = await receiver(() => 503);
		sim.configure({ callbackRetry: { maxAttempts: 50, baseDelayMs: 200, maxDelayMs: 200 } });
		await scrape(target.url);
		const startedAt = Date.now();
		while (target.received.length === 0 && Date.now() - startedAt < 2000) {
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		sim.reset();
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect(target.received).toHaveLength(1);
		expect(sim.deliveries()).toEqual([]);
	});
});

describe('backoffDelay', () => {
	const retry = { maxAttempts: 8, baseDelayMs: 100, maxDelayMs: 1000 };

	it('grows exponentially with jitter between half and all of the ceiling, capped by maxDelayMs', () => {
		for (let i = 0; i < 50; i++) {
			const first = backoffDelay(1, retry);
			expect(first).toBeGreaterThanOrEqual(50);
			expect(first).toBeLessThanOrEqual(100);
			const third = backoffDelay(3, retry);
			expect(third).toBeGreaterThanOrEqual(200);
			expect(third).toBeLessThanOrEqual(400);
			const tenth = backoffDelay(10, retry);
			expect(tenth).toBeGreaterThanOrEqual(500);
			expect(tenth).toBeLessThanOrEqual(1000);
		}
	});
});
