import { spawn } from 'node:child_process';
import { join } from 'node:path';

import type { Simulator } from '../../simulator/server';
import { SubmitAck, VideoStatusRecord } from '../../simulator/schemas';
import { http, keyAuth, type Receiver, startReceiver, startSimulator, tokenAuth } from './helpers';

let sim: Simulator;
let receiver: Receiver;
const control = (path: string) => `${sim.urls.controlUrl}${path}`;

beforeAll(async () => {
	sim = await startSimulator();
	receiver = await startReceiver();
});
afterAll(async () => {
	await sim.stop();
	await receiver.stop();
});
beforeEach(() => sim.reset());

const addProfile = () =>
	http('POST', `${sim.urls.baseUrl}/api/v2/profiles/add`, {
		headers: tokenAuth(sim),
		query: { url: 'https://maps.example/p', callback: receiver.url },
	});

describe('control HTTP API', () => {
	it('GET /urls returns the credential field names', async () => {
		const response = await http('GET', control('/urls'));
		expect(response.body).toEqual(sim.urls);
		expect(Object.keys(response.body)).toEqual([
			'baseUrl',
			'schedulingUrl',
			'ecommerceUrl',
			'videoScraperUrl',
			'photoScraperUrl',
			'socialScraperUrl',
			'reviewIndexUrl',
			'controlUrl',
		]);
	});

	it('GET /counts and POST /reset', async () => {
		await addProfile();
		expect((await http('GET', control('/counts'))).body).toMatchObject({
			jobs: 1,
			bulkJobs: 0,
			schedules: 0,
		});
		expect((await http('POST', control('/reset'))).status).toBe(200);
		expect((await http('GET', control('/counts'))).body).toEqual({
			jobs: 0,
			bulkJobs: 0,
			searches: 0,
			ecommerceSearches: 0,
			photoSearches: 0,
			scrapes: 0,
			videoRequests: 0,
			schedules: 0,
			reviewIndexJobs: 0,
			rateLimited: 0,
		});
		expect((await http('GET', control('/requests'))).body).toEqual([]);
	});

	it('GET and DELETE /requests; control calls are not logged', async () => {
		await addProfile();
		const log = await http('GET', control('/requests'));
		expect(log.body).toHaveLength(1);
		expect(log.body[0]).toMatchObject({
			api: 'review',
			method: 'POST',
			path: '/api/v2/profiles/add',
			responseStatus: 200,
		});
		expect((await http('DELETE', control('/requests'))).status).toBe(200);
		expect((await http('GET', control('/requests'))).body).toEqual([]);
	});

	it('POST /faults (one or a list), GET /faults, DELETE /faults', async () => {
		const injected = await http('POST', control('/faults'), {
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
		expect((await http('GET', control('/faults'))).body).toMatchObject([
			{ kind: 'reset-before', remaining: 2 },
		]);
		expect((await http('DELETE', control('/faults'))).status).toBe(200);
		expect((await addProfile()).status).toBe(200);
		const invalid = await http('POST', control('/faults'), { body: { kind: 'teapot' } });
		expect(invalid.status).toBe(400);
		expect(invalid.body.details).toMatch(/^kind: /);
	});

	it('POST /schedules/:id/fire and GET /deliveries?min=', async () => {
		const created = await http('POST', `${sim.urls.schedulingUrl}/schedules`, {
			headers: keyAuth(sim),
			body: {
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				query_params: { place_id: 'p', callback: receiver.url },
			},
		});
		const id = created.body.results[0].schedule_id;
		const fired = await http('POST', control(`/schedules/${id}/fire`));
		expect(fired.status).toBe(200);
		expect(fired.body.response).toMatchObject({
			status: 200,
			body: { success: true, job_id: 10001 },
		});
		expect(fired.body.schedule.last_successful_run).not.toBeNull();
		const deliveries = await http('GET', control('/deliveries'), {
			query: { min: 1, timeoutMs: 2000 },
		});
		expect(deliveries.status).toBe(200);
		expect(deliveries.body).toHaveLength(1);
		expect(deliveries.body[0]).toMatchObject({
			kind: 'review-job',
			state: 'delivered',
			ref: 10001,
		});
		expect((await http('POST', control('/schedules/999/fire'))).status).toBe(404);
		const tooMany = await http('GET', control('/deliveries'), { query: { min: 5, timeoutMs: 30 } });
		expect(tooMany.status).toBe(408);
	});

	it('POST /config changes behaviour; invalid config is 400; reset restores it', async () => {
		const configured = await http('POST', control('/config'), {
			body: { ecommerceResponse: 'ack', productCount: 3 },
		});
		expect(configured.body).toMatchObject({
			ecommerceResponse: 'ack',
			productCount: 3,
			token: 'sim-token',
		});
		const search = await http('POST', `${sim.urls.ecommerceUrl}/search`, {
			headers: keyAuth(sim),
			body: { callback: receiver.url, keyword: 'mug' },
		});
		expect(SubmitAck.parse(search.body).status).toBe('created');
		expect(
			(await http('POST', control('/config'), { body: { completionDelayMs: -1 } })).status,
		).toBe(400);
		expect((await http('POST', control('/config'), { body: { port: 1 } })).status).toBe(400);
		await http('POST', control('/reset'));
		expect(sim.config.ecommerceResponse).toBe('envelope');
	});

	it('POST /video-requests seeds a request the video host serves', async () => {
		const seeded = await http('POST', control('/video-requests'), {
			body: {
				request_id: 'v-1',
				status: 'failed',
				request_metadata: { url: 'https://video.example/w/1' },
			},
		});
		expect(seeded.status).toBe(201);
		const record = await http('GET', `${sim.urls.videoScraperUrl}/v1/requests/v-1`, {
			headers: keyAuth(sim),
		});
		expect(VideoStatusRecord.parse(record.body)).toMatchObject({
			request_id: 'v-1',
			status: 'failed',
		});
		expect(
			(await http('POST', control('/video-requests'), { body: { status: 'paused' } })).status,
		).toBe(400);
	});

	it('answers 404 for an unknown control route', async () => {
		expect((await http('GET', control('/nothing'))).status).toBe(404);
	});
});

describe('npm run simulator (simulator/main.ts)', () => {
	it('starts on the given port, prints every base URL, the token and the key, and stops on SIGTERM', async () => {
		const root = join(__dirname, '..', '..');
		const child = spawn(
			process.execPath,
			[require.resolve('tsx/cli'), 'simulator/main.ts', '--port', '0', '--token', 'cli-token'],
			{
				cwd: root,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
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
			for (const name of [
				'baseUrl',
				'schedulingUrl',
				'ecommerceUrl',
				'videoScraperUrl',
				'photoScraperUrl',
				'socialScraperUrl',
				'reviewIndexUrl',
			]) {
				expect(output).toContain(`(${name})`);
			}
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

describe('POST /schedules/:id/disabled', () => {
	it('disables and re-enables a schedule, and refuses a non-boolean or unknown schedule', async () => {
		const created = await http('POST', `${sim.urls.schedulingUrl}/schedules`, {
			headers: keyAuth(sim),
			body: {
				service: 'rsapi',
				endpoint: 'add',
				frequency: 'daily',
				query_params: { url: 'https://maps.example/p' },
			},
		});
		const id = created.body.results[0].schedule_id;
		const disable = await http('POST', control(`/schedules/${id}/disabled`), {
			body: { disabled: true },
		});
		expect(disable.body.disabled).toBe(true);
		const read = await http('GET', `${sim.urls.schedulingUrl}/schedules/${id}`, {
			headers: keyAuth(sim),
		});
		expect(read.body.results[0].disabled).toBe(true);
		expect(
			(await http('POST', control(`/schedules/${id}/disabled`), { body: { disabled: 'yes' } }))
				.status,
		).toBe(400);
		expect(
			(await http('POST', control('/schedules/999999/disabled'), { body: { disabled: true } }))
				.status,
		).toBe(404);
	});
});
