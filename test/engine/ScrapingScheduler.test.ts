import { ScrapingScheduler } from '../../nodes/ScrapingScheduler/ScrapingScheduler.node';
import { listSearchContext, runNode, useSimulator } from './fixtures';

/** What the workflow files of ScrapingScheduler/schedule/ cannot show: n8n's own checks, the picker. */
const context = useSimulator();
const TYPE = 'n8n-nodes-review-scraping.scrapingScheduler';

const create = (scheduleName: string) =>
	runNode(context.sim, {
		type: TYPE,
		parameters: {
			resource: 'schedule',
			operation: 'create',
			service: 'rsapi',
			endpoint: 'add',
			frequency: 'daily',
			scheduleName,
			url: 'https://reviews.example.com/biz/pizza',
			callback: 'https://n8n.example.com/webhook/reviews',
		},
	});

it('leaves a Callback URL left empty to n8n, which names the required field before anything runs', async () => {
	const url = 'https://reviews.example.com/biz/x';
	const parameters = { resource: 'schedule', operation: 'create', service: 'rsapi', url };
	const run = runNode(context.sim, { type: TYPE, parameters: { ...parameters, endpoint: 'add' } });
	await expect(run).rejects.toThrow('Parameter "Callback URL" is required');
	expect(context.sim.requests()).toHaveLength(0);
});

it('gets a schedule by its ID, spaces around it', async () => {
	const [created] = (await create('By ID')).items();
	const got = await runNode(context.sim, {
		type: TYPE,
		parameters: {
			resource: 'schedule',
			operation: 'get',
			scheduleId: { __rl: true, mode: 'id', value: ` ${created.schedule_id} ` },
		},
	});
	expect(got.items()).toEqual([created]);
});

it('lists schedules for the "From List" picker, filtered by the search text', async () => {
	await create('Nightly pizza');
	await create('Weekend burgers');
	const loadOptions = listSearchContext(context.sim, 'Scraping Scheduler', 'scrapingApi');
	const search = new ScrapingScheduler().methods.listSearch.searchSchedules;
	expect((await search.call(loadOptions)).results).toHaveLength(2);
	const burgers = await search.call(loadOptions, 'burger');
	expect(burgers.results.map((result) => result.name)).toEqual([
		expect.stringContaining('Weekend burgers'),
	]);
});
