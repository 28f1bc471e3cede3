import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { SubmitAck, VideoStatusRecord } from '../../simulator/schemas';
import { http, type HttpOptions, useSimulator } from './helpers';

const suite = useSimulator();
/** A call to the control API: `route` is "METHOD /path". */
const control = (route: string, options?: HttpOptions) =>
	suite.call(route.replace(' ', ' control '), options);
const addProfile = () =>
	suite.call('POST review /api/v2/profiles/add', {
		query: { url: 'https://maps.example/p', callback: suite.receiver.url },
	});
const scheduleOf = async (query_params: Record<string, string>) =>
	(
		await suite.call('POST scheduling /schedules', {
			body: { service: 'rsapi', endpoint: 'add', frequency: 'daily', query_params },
		})
	).body.results[0].schedule_id as number;
const URL_FIELDS = [
	'baseUrl',
	'schedulingUrl',
	'ecommerceUrl',
	'videoScraperUrl',
	'photoScraperUrl',
	'socialScraperUrl',
	'reviewIndexUrl',
];

describe('control HTTP API', () => {
	it('GET /urls returns the credential field names', async () => {
		const response = await control('GET /urls');
		expect(response.body).toEqual(suite.sim.urls);
		expect(Object.keys(response.body)).toEqual([...URL_FIELDS, 'controlUrl']);
	});

	it('GET /counts, GET and DELETE /requests, POST /reset; control calls are not logged', async () => {
		await addProfile();
		expect((await control('GET /counts')).body).toMatchObject({
			jobs: 1,
			bulkJobs: 0,
			schedules: 0,
		});
		const log = await control('GET /requests');
		expect(log.body).toEqual([
			expect.objectContaining({
				api: 'review',
				method: 'POST',
				path: '/api/v2/profiles/add',
				responseStatus: 200,
			}),
		]);
		expect((await control('DELETE /requests')).status).toBe(200);
		expect((await control('GET /requests')).body).toEqual([]);
		await addProfile();
		expect((await control('POST /reset')).status).toBe(200);
		const counts = (await control('GET /counts')).body;
		expect(Object.keys(counts).sort()).toEqual(
			'bulkJobs ecommerceSearches jobs photoSearches rateLimited reviewIndexJobs schedules scrapes searches videoRequests'.split(
				' ',
			),
		);
		expect(Object.values(counts)).toEqual(Array(10).fill(0));
		expect((await control('GET /requests')).body).toEqual([]);
	});

	it('POST /faults (one or a list), GET /faults, DELETE /faults', async () => {
		const injected = await control('POST /faults', {
			body: [
				{ api: 'review', kind: '429', retryAfterSeconds: 2 },
				{ api: 'review', kind: 'reset-before', times: 2 },
			],
		});
		expect(injected.status).toBe(201);
		expect(injected.body.map((f: { kind: string }) => f.kind)).toEqual(['429', 'reset-before']);
		const limited = await addProfile();
		expect(limited.status).toBe(429);
		expect(limited.headers['retry-after']).toBe('2');
		expect((await control('GET /faults')).body).toMatchObject([
			{ kind: 'reset-before', remaining: 2 },
		]);
		expect((await control('DELETE /faults')).status).toBe(200);
		expect((await addProfile()).status).toBe(200);
		const invalid = await control('POST /faults', { body: { kind: 'teapot' } });
		expect(invalid.status).toBe(400);
		expect(invalid.body.details).toMatch(/^kind: /);
	});

	it('POST /schedules/:id/fire and GET /deliveries?min=', async () => {
		const id = await scheduleOf({ place_id: 'p', callback: suite.receiver.url });
		const fired = await control(`POST /schedules/${id}/fire`);
		expect(fired.status).toBe(200);
		expect(fired.body.response).toMatchObject({
			status: 200,
			body: { success: true, job_id: 10001 },
		});
		expect(fired.body.schedule.last_successful_run).not.toBeNull();
		const deliveries = await control('GET /deliveries', { query: { min: 1, timeoutMs: 2000 } });
		expect(deliveries.status).toBe(200);
		expect(deliveries.body).toEqual([
			expect.objectContaining({ kind: 'reviewJob', state: 'delivered', ref: 10001 }),
		]);
		expect((await control('POST /schedules/999/fire')).status).toBe(404);
		const tooMany = await control('GET /deliveries', { query: { min: 5, timeoutMs: 30 } });
		expect(tooMany.status).toBe(408);
	});

	it('POST /schedules/:id/disabled disables a schedule, refusing a non-boolean or unknown one', async () => {
		const id = await scheduleOf({ url: 'https://maps.example/p' });
		const disable = (target: number, disabled: unknown) =>
			control(`POST /schedules/${target}/disabled`, { body: { disabled } });
		expect((await disable(id, true)).body.disabled).toBe(true);
		const read = await suite.call(`GET scheduling /schedules/${id}`);
		expect(read.body.results[0].disabled).toBe(true);
		expect((await disable(id, 'yes')).status).toBe(400);
		expect((await disable(999999, true)).status).toBe(404);
	});

	it('POST /config changes behaviour; invalid config is 400; reset restores it', async () => {
		const configure = (body: unknown) => control('POST /config', { body });
		const configured = await configure({ ecommerceResponse: 'ack', productCount: 3 });
		expect(configured.body).toMatchObject({
			ecommerceResponse: 'ack',
			productCount: 3,
			token: 'sim-token',
		});
		const search = await suite.call('POST ecommerce /search', {
			body: { callback: suite.receiver.url, keyword: 'mug' },
		});
		expect(SubmitAck.parse(search.body).status).toBe('created');
		expect((await configure({ completionDelayMs: -1 })).status).toBe(400);
		expect((await configure({ port: 1 })).status).toBe(400);
		await control('POST /reset');
		expect(suite.sim.config.ecommerceResponse).toBe('envelope');
	});

	it('POST /config chooses the retry policy and the time scale; nonsense is 400', async () => {
		const configure = (body: unknown) => control('POST /config', { body });
		const configured = await configure({ timeScale: 0.001, callbackRetry: { policy: 'service' } });
		expect(configured.status).toBe(200);
		expect(configured.body).toMatchObject({
			timeScale: 0.001,
			callbackRetry: { policy: 'service', serviceDelaysMs: [7_200_000, 21_600_000, 86_400_000] },
		});
		for (const body of [
			{ timeScale: 0 },
			{ callbackRetry: { policy: 'sometimes' } },
			{ callbackRetry: { serviceDelaysMs: [-1] } },
		]) {
			expect((await configure(body)).status).toBe(400);
		}
	});

	it('POST /video-requests seeds a request the video host serves', async () => {
		const seeded = await control('POST /video-requests', {
			body: {
				request_id: 'v-1',
				status: 'failed',
				request_metadata: { url: 'https://video.example/w/1' },
			},
		});
		expect(seeded.status).toBe(201);
		const record = await suite.call('GET video /v1/requests/v-1');
		expect(VideoStatusRecord.parse(record.body)).toMatchObject({
			request_id: 'v-1',
			status: 'failed',
		});
		expect((await control('POST /video-requests', { body: { status: 'paused' } })).status).toBe(
			400,
		);
	});

	it('answers 404 for an unknown control route', async () => {
		expect((await control('GET /nothing')).status).toBe(404);
	});
});

describe('npm run simulator (simulator/main.ts)', () => {
	it('starts on the given port, prints every base URL, the token and the key, and stops on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			[require.resolve('tsx/cli'), 'simulator/main.ts', '--port', '0', '--token', 'cli-token'],
			{ cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			let output = '';
			await new Promise<void>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error(`no banner in time: ${output}`)), 8000);
				child.stdout.on('data', (chunk: Buffer) => {
					output += chunk.toString();
					if (output.includes('Ctrl+C')) {
						clearTimeout(timer);
						resolve();
					}
				});
				child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
			});
			for (const name of URL_FIELDS) expect(output).toContain(`(${name})`);
			expect(output).toContain('cli-token');
			expect(output).toContain('sim-key');
			const baseUrl = /\(baseUrl\)\s+(\S+)/.exec(output)![1];
			const jobs = await http('GET', `${baseUrl}/api/v2/responds/jobs`, {
				headers: { 'spiderman-token': 'cli-token' },
			});
			expect(jobs.status).toBe(200);
			const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	}, 15000);
});
