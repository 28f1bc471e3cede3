import {
	assessSchedule,
	checkCron,
	scheduleNotice,
	silenceAllowedMs,
	spreadOf,
} from '../../../nodes/ScheduledScrapeTrigger/scheduleHealth';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-27T12:00:00Z');
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR).toISOString().slice(0, 19);

describe('assessSchedule', () => {
	it.each([
		['gone', undefined, 'daily'],
		['disabled', { disabled: true, last_successful_run: at(1) }, 'daily'],
		['healthy', { disabled: false, last_successful_run: at(47) }, 'daily'],
		['silent', { disabled: false, last_successful_run: at(49) }, 'daily'],
		['healthy', { disabled: false, last_successful_run: at(24 * 13) }, 'weekly'],
		['silent', { disabled: false, last_successful_run: at(24 * 15) }, 'weekly'],
		['healthy', { disabled: false, last_successful_run: at(24 * 61) }, 'monthly'],
	])('%s: %j (%s)', (condition, schedule, frequency) => {
		expect(assessSchedule(schedule, frequency, NOW, NOW)).toBe(condition);
	});

	it('reads the service time as UTC and, before a first run, counts from when watching began', () => {
		expect(assessSchedule({ last_successful_run: at(47) }, 'daily', NOW, 0)).toBe('healthy');
		expect(assessSchedule({ last_successful_run: null }, 'daily', NOW, NOW - 49 * HOUR)).toBe(
			'silent',
		);
		expect(assessSchedule({ last_successful_run: null }, 'daily', NOW, NOW - HOUR)).toBe('healthy');
		expect(silenceAllowedMs('unknown')).toBe(48 * HOUR);
	});
});

describe('checkCron', () => {
	it('spreads the looks of many triggers over the hour, the same for the same trigger', () => {
		expect(spreadOf('workflow-1:node-1')).toBe(spreadOf('workflow-1:node-1'));
		const spreads = new Set(
			Array.from({ length: 50 }, (_, index) => spreadOf(`workflow-${index}:node`)),
		);
		expect(spreads.size).toBeGreaterThan(40);
		expect(checkCron('auto', 'daily', 3725)).toBe('5 2 * * * *');
		expect(checkCron('auto', 'weekly', 3725)).toBe('5 2 1/6 * * *');
		expect(checkCron('auto', 'monthly', 3725)).toBe('5 2 1 * * *');
		expect(checkCron('quarterHour', 'daily', 3725)).toBe('5 2/15 * * * *');
		expect(checkCron('minute', 'daily', 3725)).toBe('5 * * * * *');
		expect(checkCron('off', 'daily', 3725)).toBeNull();
	});
});

describe('scheduleNotice', () => {
	const base = {
		scheduleId: 4,
		schedule: { schedule_name: 'n8n: Reviews', last_successful_run: '2026-11-20T01:02:03' },
		frequency: 'daily',
		noticedAt: new Date(NOW),
		mendOn: false,
	};

	it('says what was found, since when, and what to do, with no payload (and so no secret)', () => {
		const notice = scheduleNotice({ ...base, condition: 'disabled', previous: 'healthy' });
		expect(notice).toEqual({
			notice: 'disabled',
			message: expect.stringMatching(
				/^Schedule 4 is disabled\. The service disabled it .* Turn on Options → Mend Schedule/,
			),
			scheduleId: 4,
			scheduleName: 'n8n: Reviews',
			frequency: 'daily',
			lastSuccessfulRun: '2026-11-20T01:02:03',
			noticedAt: '2026-11-27T12:00:00.000Z',
		});
	});

	it('names the replacement, a failed mend, and a recovery', () => {
		const goneAndMended = (mended: { scheduleId: number } | { error: string }) =>
			scheduleNotice({ ...base, condition: 'gone', previous: 'healthy', mendOn: true, mended })
				.message;
		expect(goneAndMended({ scheduleId: 9 })).toContain('replaced it with schedule 9');
		expect(goneAndMended({ error: 'HTTP 500' })).toContain('could not replace it: HTTP 500');
		expect(scheduleNotice({ ...base, condition: 'healthy', previous: 'silent' })).toMatchObject({
			notice: 'recovered',
			previousNotice: 'silent',
			message: 'Schedule 4 is running again (it was silent).',
		});
	});
});
