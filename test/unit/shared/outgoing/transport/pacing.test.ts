import type { IExecuteFunctions } from 'n8n-workflow';

import { send } from '../../../../../nodes/shared/outgoing/transport';
import { pacerFor, RequestPacer } from '../../../../../nodes/shared/outgoing/transport/pacing';
import { serviceContext } from '../../../helpers';

// Lower bounds only: a busy machine makes gaps longer, except the gap after a send recorded late.
const gaps = (times: number[]) => times.slice(1).map((time, i) => time - times[i]);

describe('RequestPacer', () => {
	it('spaces grants by at least 1/rate, with a little headroom, in the order they were asked', async () => {
		const pacer = new RequestPacer(20);
		const granted: Array<{ index: number; at: number }> = [];
		await Promise.all(
			Array.from({ length: 8 }, async (_, index) => {
				await pacer.acquire();
				granted.push({ index, at: Date.now() });
			}),
		);
		expect(granted.map((grant) => grant.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		// 1000 / (20 * 0.95) = 52.6 ms; timers may fire a millisecond early.
		expect(Math.min(...gaps(granted.map((grant) => grant.at)))).toBeGreaterThanOrEqual(51);
	});

	it('eases off on a lone refusal, halves on refusals in a row, pauses every sender, and wins the rate back step by step', async () => {
		const pacer = new RequestPacer(10);
		await pacer.acquire();
		// Read before the refusal: the pause runs from there, and acquire() re-checks the clock until it
		// has passed, so 300 ms is a lower bound however long the lines in between take.
		const refusedAt = Date.now();
		const pause = pacer.refused(300);
		expect(pause).toBe(300);
		expect(pacer.rate).toBeCloseTo(8, 5);
		await pacer.acquire();
		expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(300);
		pacer.refused(0);
		expect(pacer.rate).toBeCloseTo(4, 5);
		pacer.accepted();
		// An accepted request in between makes the next refusal a lone one again.
		pacer.refused(0);
		expect(pacer.rate).toBeCloseTo(3.36, 5);
		for (let i = 0; i < 3; i++) pacer.refused(0);
		// Never below a tenth of the configured rate.
		expect(pacer.rate).toBe(1);
		for (let i = 0; i < 10; i++) pacer.accepted();
		expect(pacer.rate).toBeCloseTo(3, 5);
		for (let i = 0; i < 100; i++) pacer.accepted();
		expect(pacer.rate).toBe(10);
		expect(pacer.refusals).toBe(6);
	});

	it('waits longer after each refusal in a row when the service gives no Retry-After', () => {
		const pacer = new RequestPacer(10);
		const pauses = [1, 2, 3, 4, 5, 6].map(() => pacer.refused());
		expect(pauses[0]).toBeGreaterThanOrEqual(125);
		expect(pauses[0]).toBeLessThanOrEqual(250);
		expect(pauses[3]).toBeGreaterThanOrEqual(1000);
		expect(pauses[3]).toBeLessThanOrEqual(2000);
		expect(Math.max(...pauses)).toBeLessThanOrEqual(10_000);
	});

	it('starts again at the full rate once a minute has passed without a refusal', async () => {
		const pacer = new RequestPacer(10);
		const now = Date.now();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
		try {
			pacer.refused(0);
			expect(pacer.rate).toBeCloseTo(8, 5);
			clock.mockReturnValue(now + 30_000);
			await pacer.acquire();
			expect(pacer.rate).toBeCloseTo(8, 5);
			clock.mockReturnValue(now + 61_000);
			await pacer.acquire();
			expect(pacer.rate).toBe(10);
		} finally {
			clock.mockRestore();
		}
	});
});

describe('pacerFor', () => {
	it('shares one pacer per API and account, and follows a changed rate', () => {
		const a = pacerFor('review', 'http://127.0.0.1:1', 'token-a', 10);
		expect(pacerFor('review', 'http://127.0.0.1:1', 'token-a', 10)).toBe(a);
		expect(pacerFor('review', 'http://127.0.0.1:1', 'token-b', 10)).not.toBe(a);
		expect(pacerFor('photo', 'http://127.0.0.1:1', 'token-a', 10)).not.toBe(a);
		pacerFor('review', 'http://127.0.0.1:1', 'token-a', 4);
		expect(a.rate).toBe(4);
	});
});

describe('send pacing', () => {
	function context(apiToken: string, requestsPerSecond: number, answers: number[] = []) {
		const sentAt: number[] = [];
		const { context: ctx } = serviceContext({
			credentials: { apiToken, requestsPerSecond },
			answer: (_request, index) => {
				sentAt.push(Date.now());
				return answers[index] === 429
					? { statusCode: 429, body: 'Too Many Requests' }
					: { statusCode: 200, body: { success: true } };
			},
		});
		return { ctx, sentAt };
	}
	const get = (ctx: IExecuteFunctions) =>
		send.call(ctx, { api: 'review', method: 'GET', path: '/api/v2/responds/jobs' });

	it('paces two executions that use the same token as one stream', async () => {
		const first = context('shared-token', 20);
		const second = context('shared-token', 20);
		await Promise.all([
			...Array.from({ length: 4 }, () => get(first.ctx)),
			...Array.from({ length: 4 }, () => get(second.ctx)),
		]);
		const all = [...first.sentAt, ...second.sentAt].sort((a, b) => a - b);
		expect(all).toHaveLength(8);
		// One stream at 20 per second sends 52.6 ms apart; two would send pairs about 0 ms apart.
		// A send recorded late (the machine busy) shortens the gap after it: it failed at 51 once.
		expect(Math.min(...gaps(all))).toBeGreaterThanOrEqual(26);
	});

	it('does not make another account wait', async () => {
		const busy = context('busy-token', 2);
		const other = context('other-token', 2);
		const busyRun = Promise.all([get(busy.ctx), get(busy.ctx), get(busy.ctx)]);
		const started = Date.now();
		await get(other.ctx);
		expect(Date.now() - started).toBeLessThan(400);
		await busyRun;
		// Three requests at 2 per second (with headroom) take two intervals of 526 ms.
		expect(busy.sentAt[2] - busy.sentAt[0]).toBeGreaterThanOrEqual(1040);
	});

	it('slows the shared pacer when the service answers 429, then gets the request through', async () => {
		const { ctx, sentAt } = context('refused-token', 10, [429]);
		await expect(get(ctx)).resolves.toEqual({ success: true });
		expect(sentAt).toHaveLength(2);
		// The pause after a first refusal without Retry-After is 125 to 250 ms.
		expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(120);
		const pacer = pacerFor('review', 'http://127.0.0.1:9', 'refused-token', 10);
		expect(pacer.refusals).toBe(1);
		expect(pacer.rate).toBeLessThan(10);
	});
});
