import {
	assessSchedule,
	checkCron,
	isRefusedKey,
	readableNotice,
	scheduleNotice,
	silenceAllowedMs,
	spreadOf,
	unreadableNotice,
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

describe('unreadableNotice and readableNotice', () => {
	const failure = {
		scheduleId: 12,
		frequency: 'daily',
		details: 'GET /schedules/12 answered HTTP 401',
		failingSince: new Date(NOW - 2 * HOUR),
		noticedAt: new Date(NOW),
	};

	it('a refused key says to check the credential, in the service words', () => {
		const notice = unreadableNotice({
			...failure,
			serviceMessage: 'Invalid API key',
			httpCode: '401',
		});
		expect(notice).toMatchObject({
			notice: 'unreadable',
			scheduleId: 12,
			httpCode: '401',
			serviceMessage: 'Invalid API key',
			failingSince: '2026-11-27T10:00:00.000Z',
			noticedAt: '2026-11-27T12:00:00.000Z',
		});
		expect(notice.message).toBe(
			'The trigger cannot read schedule 12: the service refused the Scraping API credential (Invalid API key). Check the credential: its API key may have been revoked or rotated; update it in n8n. Until it can, it cannot tell whether the schedule runs, is disabled or is gone.',
		);
		expect(isRefusedKey('403')).toBe(true);
		expect(isRefusedKey('500')).toBe(false);
		expect(isRefusedKey(null)).toBe(false);
	});

	it('other failures say since when, and where to look', () => {
		const notice = unreadableNotice({
			...failure,
			serviceMessage: 'The service answered HTTP 503',
			httpCode: '503',
		});
		expect(notice.message).toContain(
			'its reads have failed since 2026-11-27T10:00:00.000Z (The service answered HTTP 503)',
		);
		expect(notice.message).toContain("Check the credential's Scheduling URL");
	});

	it('readable says what the schedule is now', () => {
		expect(
			readableNotice({
				condition: 'disabled',
				scheduleId: 12,
				schedule: { schedule_name: 'n8n: Reviews', last_successful_run: at(3) },
				frequency: 'daily',
				noticedAt: new Date(NOW),
			}),
		).toEqual({
			notice: 'readable',
			message: 'The trigger can read schedule 12 again: it is disabled.',
			scheduleId: 12,
			scheduleName: 'n8n: Reviews',
			frequency: 'daily',
			lastSuccessfulRun: at(3),
			noticedAt: '2026-11-27T12:00:00.000Z',
			previousNotice: 'unreadable',
		});
	});
});
