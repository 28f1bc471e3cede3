import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { PAGE_PATIENCE_MS, type BurstCell } from '../../../bench/lib/burstTable';
import { ReviewScraperApi } from '../../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../../credentials/ScrapingApi.credentials';
import { DEFAULT_CONFIG, HOUR_MS } from '../../../simulator/config';
import { UNRESOLVED_FOR_MS } from '../../../simulator/lookup';
import { packageNodes } from '../nodeClasses';
import { checkCron, silenceAllowedMs } from '../../../nodes/ScheduledScrapeTrigger/scheduleHealth';

/**
 * Every figure of the README, CONTRIBUTING.md, docs/ and the editor's texts (a ratio, a share, a duration, a size, a
 * rate, a count of tests) comes from a committed result or from code: each allowed figure below
 * reads its source, so a changed source fails here, and a figure of the docs that no entry allows
 * fails too. The generated blocks (compat-table, patterns-table, code-map) and docs/results/ are
 * checked by their own tests.
 */

const root = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const json = <T = any>(path: string): T => JSON.parse(read(path)) as T;

function markdownUnder(folder: string): string[] {
	return readdirSync(join(root, folder)).flatMap((name) => {
		const path = `${folder}/${name}`;
		if (path === 'docs/results') return [];
		if (statSync(join(root, path)).isDirectory()) return markdownUnder(path);
		return path.endsWith('.md') ? [path] : [];
	});
}

/** The editor's texts (every node's and credential's labels, descriptions, hints, notices, panels). */
const EDITOR = 'the editor';
const TEXT_KEYS = new Set([
	'displayName',
	'description',
	'hint',
	'placeholder',
	'action',
	'header',
	'executionsHelp',
	'activationHint',
	'active',
	'inactive',
	'subtitle',
]);
function editorTexts(value: unknown, key = ''): string[] {
	if (typeof value === 'string') return TEXT_KEYS.has(key) ? [value] : [];
	if (Array.isArray(value)) return value.flatMap((entry) => editorTexts(entry, key));
	if (value && typeof value === 'object') {
		return Object.entries(value).flatMap(([name, entry]) => editorTexts(entry, name));
	}
	return [];
}
const editorLines = [
	...packageNodes.flatMap(({ node }) => editorTexts(node.description)),
	...[new ReviewScraperApi(), new ScrapingApi()].flatMap((credential) =>
		editorTexts(credential.properties),
	),
];

const documents = ['README.md', 'CONTRIBUTING.md', ...markdownUnder('docs'), EDITOR];

const number = String.raw`\d[\d,]*(?:\.\d+)?`;
const list = String.raw`${number}(?:(?:, | to |–|-| and |, and )${number})*`;
const words = [
	'µs',
	'ms',
	's',
	'seconds?',
	'min',
	'minutes?',
	'h',
	'hours?',
	'days?',
	'kB',
	'KB',
	'MB',
	'MiB',
	'GB',
	'GiB',
	'tests',
	'cases?',
	'(?:[a-z]+ )?per (?:second|minute|hour)',
].join('|');
/** A number (or a list or range of them) with a unit: `0.97×`, `5 %`, `15/s`, `2 s`, `16 MiB`, `2-day`. */
const figurePattern = new RegExp(
	String.raw`(?<![\w.,/\-–])${list}(?:\s?(?:×|%|\/s\b)|(?: \*?|-)(?:${words})\b)`,
	'giu',
);

interface Found {
	file: string;
	line: number;
	text: string;
	figure: string;
}

/** The figures of a document, outside fenced code, inline code and generated blocks. */
function figuresOf(file: string): Found[] {
	const found: Found[] = [];
	let fenced = false;
	let generated = false;
	(file === EDITOR ? editorLines : read(file).split('\n')).forEach((text, index) => {
		if (/^\s*```/.test(text)) fenced = !fenced;
		else if (/<!-- [\w-]+:start -->/.test(text)) generated = true;
		else if (/<!-- [\w-]+:end -->/.test(text)) generated = false;
		else if (!fenced && !generated) {
			for (const [match] of text.replace(/`[^`\n]*`/g, '').matchAll(figurePattern)) {
				const figure = match.replace(/\*/g, '').toLowerCase();
				found.push({ file, line: index + 1, text, figure });
			}
		}
	});
	return found;
}

// Formatting as the docs write figures.
const thousands = (n: number): string => n.toLocaleString('en-US');
const listed = (values: Array<string | number>): string =>
	values.length === 1
		? String(values[0])
		: `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
/** Both sources say the same, or the figure fails with both. */
const agree = (a: string, b: string): string => (a === b ? a : `${a}, but the other source: ${b}`);

/** A numeric constant written in a source file: `NAME = 10_000` or `name: 0.95`. */
function constantIn(path: string, name: string): number {
	const match = new RegExp(String.raw`\b${name}\s*[:=]\s*([\d_.]+)`).exec(read(path));
	if (!match) throw new Error(`${path} no longer defines ${name}`);
	return Number(match[1].replace(/_/g, ''));
}

/** A file of an installed package, found the way Node finds the package. */
const packageFile = (name: string, path: string): string =>
	relative(root, join(dirname(require.resolve(`${name}/package.json`)), path));

// The committed results.
const full = json('bench/results/full.json');
const bench = (id: string) => {
	const result = full.results.find((entry: { id: string }) => entry.id === id);
	if (!result) throw new Error(`bench/results/full.json has no ${id} results`);
	return result;
};
const benchRow = (id: string, measure: string) => {
	const row = bench(id).rows.find((entry: { measure: string }) => entry.measure === measure);
	if (!row) throw new Error(`bench/results/full.json: ${id} has no row "${measure}"`);
	return row;
};
/** The median of a bench cell: `16/s (13/s–18/s)` → `16`. */
const median = (value: string): string => value.split(/[ /]/)[0];
const patterns = json('docs/results/patterns.json');
/** The burst bench's cells and patiences (bench/results/full.json). */
const burstCells = (): { cells: BurstCell[]; patiences: number[] } => {
	const result = bench('burst');
	return { cells: result.raw.cells, patiences: result.params.patiences };
};
/** n8n's highest peak, in GB to one decimal, of a receiver straight to one n8n on its defaults. */
const straightPeakGb = (receiver: BurstCell['receiver']): string => {
	const peaks = burstCells()
		.cells.filter(
			(cell) =>
				cell.receiver === receiver && cell.setting === 'defaults' && cell.front === 'direct',
		)
		.flatMap((cell) => Object.values(cell.peakRssMb));
	if (peaks.length === 0) throw new Error(`no ${receiver} cell straight to n8n on its defaults`);
	return (Math.max(...peaks) / 1000).toFixed(1);
};

const measurements = read('test/compat/measurements.md');
/** A row of a Markdown table of test/compat/measurements.md, by its first cell. */
const measuredRows = (first: RegExp): string[][] =>
	measurements
		.split('\n')
		.filter((line) => line.startsWith('|'))
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		)
		.filter((cells) => first.test(cells[0]));
const LAST_CI_RUNS = '## Two fresh-clone CI runs, commits 9e76e8d and e28bc9d';
/** A section of test/compat/measurements.md, from its heading to the next. */
const sectionOf = (heading: string): string => {
	const start = measurements.indexOf(heading);
	if (start < 0) throw new Error(`test/compat/measurements.md has no "${heading}"`);
	const end = measurements.indexOf('\n## ', start + heading.length);
	return measurements.slice(start, end < 0 ? undefined : end);
};
const ciRunOn = (commit: string): string => {
	const match = new RegExp(String.raw`Run on ${commit} \(([\d,]+) s\)`).exec(measurements);
	if (!match) throw new Error(`test/compat/measurements.md has no CI run on ${commit}`);
	return `${match[1]} s`;
};
const matrix = (database: string): string[] => {
	const [row] = measuredRows(new RegExp(`^${database}`));
	if (!row)
		throw new Error(`test/compat/measurements.md has no settings matrix row for ${database}`);
	return row;
};
const installer = (n8n: string): string => {
	const [row] = measuredRows(new RegExp(`^${n8n.replace(/\./g, '\\.')}$`));
	if (!row) throw new Error(`test/compat/measurements.md has no installer row for ${n8n}`);
	return row[3];
};

// Code: the simulator (the service as production behaves), the nodes, the tests, n8n.
const serviceRetryHours = DEFAULT_CONFIG.callbackRetry.serviceDelaysMs.map((ms) => ms / HOUR_MS);
const pacing = 'nodes/shared/outgoing/transport/pacing.ts';
const retryPolicy = 'nodes/shared/outgoing/transport/retryPolicy.ts';
// Read as text, not imported: the nodes' constants, without compiling their descriptions.
const node = {
	largeDeliveryLimitMiB: () =>
		constantIn('nodes/shared/incoming/trigger/options.ts', 'LARGE_DELIVERY_LIMIT_MIB'),
	requestsPerSecond: () =>
		constantIn('nodes/shared/outgoing/transport/apis.ts', 'DEFAULT_REQUESTS_PER_SECOND'),
	timeLimitDays: () =>
		constantIn('nodes/shared/waiting/waitFields.ts', 'DEFAULT_TIME_LIMIT_MINUTES') / 1440,
};
const n8nCore = packageFile('n8n-core', 'dist/execution-engine/workflow-execute.js');
const retryParams = (): [number, number, number] => {
	const match =
		/Math\.min\((\d+), Math\.max\((\d+), executionData\.node\.waitBetweenTries \|\| (\d+)\)\)/.exec(
			read(n8nCore),
		);
	if (!match) throw new Error(`${n8nCore}: getRetryParams changed`);
	return [Number(match[2]), Number(match[1]), Number(match[3])];
};
/** The large-delivery sizes (MiB) of the bench and of the e2e test, which the docs name together. */
const largeDeliverySizes = (): string[][] => [
	bench('large-delivery').params.sizes.map(String),
	[...read('test/e2e/large-deliveries.test.ts').matchAll(/const REVIEWS_FOR_(\d+)_MIB/g)].map(
		(match) => match[1],
	),
];
const largeDelivery = (pick: (sizes: string[]) => string): string => {
	const [fromBench, fromE2e] = largeDeliverySizes();
	return agree(`${pick(fromBench)} mib`, `${pick(fromE2e)} mib`);
};
const listensMinutes = (): number => {
	const match = /n8n listens for (\d+) minutes/.exec(
		read('nodes/shared/incoming/trigger/panel.ts'),
	);
	if (!match) throw new Error('the trigger panel no longer says how long n8n listens');
	return Number(match[1]);
};

const README = 'README.md';
const CONTRIBUTING = 'CONTRIBUTING.md';
const delivery = 'docs/results-delivery.md';
const testPanels = [
	README,
	delivery,
	'docs/nodes/scraping-callback-trigger.md',
	'docs/nodes/scheduled-scrape-trigger.md',
];

interface Allowed {
	/** As the docs write it (lower case, without emphasis). */
	figure: string;
	/** The documents it may appear in. */
	in: string[];
	/** Only on lines that contain this (the raw line, inline code included). */
	near?: string;
	source: string;
	/** Reads the source and formats the figure as the docs write it. */
	expected: () => string;
}

const allowed: Allowed[] = [
	// n8n's own limits and settings.
	{
		figure: '16 mib',
		in: [README, delivery, EDITOR, 'docs/nodes/scraping-delivery.md'],
		source: "n8n's default N8N_PAYLOAD_SIZE_MAX (@n8n/config, endpoints.config.js)",
		expected: () =>
			`${constantIn(packageFile('@n8n/config', 'dist/configs/endpoints.config.js'), 'this.payloadSizeMax')} mib`,
	},
	{
		figure: '100 mib',
		in: [delivery],
		near: 'EXECUTIONS_DATA_MAX_DISPLAY_SIZE',
		source: "n8n's default EXECUTIONS_DATA_MAX_DISPLAY_SIZE (@n8n/config, executions.config.js)",
		expected: () => {
			const path = packageFile('@n8n/config', 'dist/configs/executions.config.js');
			const match = /this\.maxDisplaySize = (\d+) \* 1024 \* 1024/.exec(read(path));
			return `${match?.[1]} mib`;
		},
	},
	{
		figure: '2 minutes',
		in: [...testPanels, EDITOR],
		source: 'how long n8n listens for a test event, as the trigger panel says (nodes/…/panel.ts)',
		expected: () => `${listensMinutes()} minutes`,
	},
	{
		figure: '5 minutes',
		in: [README],
		near: 'The first run downloads',
		source: 'what `npm start` tells of its first run (scripts/start.ts)',
		expected: () => {
			const match = /first run installs them: about (\d+) minutes/.exec(read('scripts/start.ts'));
			if (!match) throw new Error('scripts/start.ts no longer says how long its first run takes');
			return `${match[1]} minutes`;
		},
	},
	{
		figure: '0 to 5,000 ms',
		in: ['docs/settings-tab.md'],
		source: "n8n-core's getRetryParams (Wait Between Tries bounds)",
		expected: () => `${retryParams()[0]} to ${thousands(retryParams()[1])} ms`,
	},
	{
		figure: '0 ms',
		in: ['docs/settings-tab.md'],
		source: "n8n-core's getRetryParams (0 is falsy, so it takes the default)",
		expected: () => `${retryParams()[0]} ms`,
	},
	{
		figure: '1,000 ms',
		in: ['docs/settings-tab.md'],
		source: "n8n-core's getRetryParams (default Wait Between Tries)",
		expected: () => `${thousands(retryParams()[2])} ms`,
	},
	{
		figure: '1 ms',
		in: ['docs/settings-tab.md'],
		source: "n8n-core's getRetryParams: the smallest wait its `||` default keeps",
		expected: () => (retryParams()[0] === 0 ? '1 ms' : `${retryParams()[0]} ms`),
	},
	// The service (the simulator implements production's behaviour, REAL-SERVICE.md).
	{
		figure: '2, 3, 5, 12, 24 and 72 hours',
		in: [delivery],
		source:
			"the service's retries of a job in maintenance (simulator/config.ts maintenanceRetryDelaysMs)",
		expected: () =>
			`${listed(DEFAULT_CONFIG.maintenanceRetryDelaysMs.map((ms) => ms / HOUR_MS))} hours`,
	},
	{
		figure: '2, 6 and 24 hours',
		in: [README, CONTRIBUTING, delivery, 'docs/running-at-scale.md', EDITOR],
		source: "the service's callback retries (simulator/config.ts serviceDelaysMs)",
		expected: () => `${listed(serviceRetryHours)} hours`,
	},
	{
		figure: '2 hours',
		in: [delivery, 'docs/many-profiles.md', 'docs/troubleshooting.md'],
		source: "the service's first callback retry (simulator/config.ts serviceDelaysMs)",
		expected: () => `${serviceRetryHours[0]} hours`,
	},
	{
		figure: '2 h',
		in: [delivery],
		source: "the service's first callback retry (simulator/config.ts serviceDelaysMs)",
		expected: () => `${serviceRetryHours[0]} h`,
	},
	{
		figure: '24 h',
		in: [delivery],
		source: "the service's last callback retry (simulator/config.ts serviceDelaysMs)",
		expected: () => `${serviceRetryHours[serviceRetryHours.length - 1]} h`,
	},
	{
		figure: '10 requests per second',
		in: [CONTRIBUTING, 'docs/errors-and-retries.md', 'docs/many-profiles.md'],
		source: "the review API's rate limit (simulator/config.ts rateLimit.review)",
		expected: () => `${DEFAULT_CONFIG.rateLimit.review} requests per second`,
	},
	{
		figure: '10 requests per second',
		in: ['docs/performance.md'],
		source: 'the service-limit bench (bench/results/full.json) and simulator/config.ts',
		expected: () =>
			agree(
				`${bench('service-limit').params.limit} requests per second`,
				`${DEFAULT_CONFIG.rateLimit.review} requests per second`,
			),
	},
	{
		figure: '10 s',
		in: [CONTRIBUTING, 'docs/troubleshooting.md'],
		near: 'wait',
		source: "how long the simulator's callback waits for an answer (simulator/callbacks.ts)",
		expected: () => `${constantIn('simulator/callbacks.ts', 'headersTimeout') / 1000} s`,
	},
	{
		figure: '30 s',
		in: [CONTRIBUTING],
		near: 'simulator/lookup.ts',
		source: 'simulator/lookup.ts UNRESOLVED_FOR_MS',
		expected: () => `${UNRESOLVED_FOR_MS / 1000} s`,
	},
	// The nodes.
	{
		figure: '128 mib',
		in: [README, delivery, EDITOR],
		source: 'nodes/shared/incoming/trigger/options.ts LARGE_DELIVERY_LIMIT_MIB',
		expected: () => `${node.largeDeliveryLimitMiB()} mib`,
	},
	{
		figure: '2 days',
		in: [README, delivery, EDITOR],
		source: 'nodes/shared/waiting/waitFields.ts DEFAULT_TIME_LIMIT_MINUTES',
		expected: () => `${node.timeLimitDays()} days`,
	},
	{
		figure: '72 hours',
		in: [EDITOR],
		source:
			"the last of the service's retries of a job in maintenance (simulator/config.ts maintenanceRetryDelaysMs)",
		expected: () => `${DEFAULT_CONFIG.maintenanceRetryDelaysMs.at(-1)! / HOUR_MS} hours`,
	},
	{
		figure: '2-day',
		in: [README, delivery],
		source: 'nodes/shared/waiting/waitFields.ts DEFAULT_TIME_LIMIT_MINUTES',
		expected: () => `${node.timeLimitDays()}-day`,
	},
	{
		figure: '3 minutes',
		in: [README, 'docs/errors-and-retries.md'],
		source: 'nodes/shared/outgoing/transport/retryPolicy.ts rateLimitBudgetMs',
		expected: () => `${constantIn(retryPolicy, 'rateLimitBudgetMs') / 60_000} minutes`,
	},
	{
		figure: '60 s',
		in: ['docs/errors-and-retries.md'],
		source: 'nodes/shared/outgoing/transport/retryPolicy.ts maxRetryAfterMs',
		expected: () => `${constantIn(retryPolicy, 'maxRetryAfterMs') / 1000} s`,
	},
	{
		figure: '10 per second',
		in: ['docs/limits.md', EDITOR],
		source: 'nodes/shared/outgoing/transport/apis.ts DEFAULT_REQUESTS_PER_SECOND',
		expected: () => `${node.requestsPerSecond()} per second`,
	},
	{
		figure: '5 %',
		in: ['docs/errors-and-retries.md'],
		source: `${pacing} HEADROOM`,
		expected: () => `${Math.round((1 - constantIn(pacing, 'HEADROOM')) * 100)} %`,
	},
	{
		figure: '0.8×',
		in: ['docs/errors-and-retries.md'],
		source: `${pacing} LONE_REFUSAL_FACTOR`,
		expected: () => `${constantIn(pacing, 'LONE_REFUSAL_FACTOR')}×`,
	},
	{
		figure: '125–250 ms',
		in: ['docs/errors-and-retries.md'],
		source: `${pacing} FIRST_PAUSE_MS (a pause of half to all of it)`,
		expected: () => {
			expect(read(pacing)).toContain('ceiling / 2 + (Math.random() * ceiling) / 2');
			const first = constantIn(pacing, 'FIRST_PAUSE_MS');
			return `${first / 2}–${first} ms`;
		},
	},
	{
		figure: '10 s',
		in: ['docs/errors-and-retries.md'],
		source: `${pacing} MAX_PAUSE_MS`,
		expected: () => `${constantIn(pacing, 'MAX_PAUSE_MS') / 1000} s`,
	},
	{
		figure: '2 %',
		in: ['docs/errors-and-retries.md'],
		source: `${pacing} RECOVERY_SHARE`,
		expected: () => `${Math.round(constantIn(pacing, 'RECOVERY_SHARE') * 100)} %`,
	},
	// The tests' own bounds.
	{
		figure: '1.25×',
		in: ['docs/errors-and-retries.md'],
		source: 'test/e2e/rate-limit.test.ts (its time bound)',
		expected: () =>
			`${/toBeLessThanOrEqual\(([\d.]+) \* ideal\)/.exec(read('test/e2e/rate-limit.test.ts'))?.[1]}×`,
	},
	{
		figure: '2 s',
		in: ['docs/limits.md'],
		source: 'test/e2e-queue/job-retention.test.ts STILL_WAITING_AFTER_MS',
		expected: () =>
			`${constantIn('test/e2e-queue/job-retention.test.ts', 'STILL_WAITING_AFTER_MS') / 1000} s`,
	},
	{
		figure: '120 s',
		in: [CONTRIBUTING],
		source: 'test/e2e/harness/client.ts WEBHOOK_ANSWER_MS',
		expected: () => `${constantIn('test/e2e/harness/client.ts', 'WEBHOOK_ANSWER_MS') / 1000} s`,
	},
	{
		figure: '100 mib',
		in: [CONTRIBUTING],
		source: 'test/e2e/large-deliveries.test.ts (the n8n fault it records)',
		expected: () =>
			/'n8n: (\d+ MiB) delivery unanswered/
				.exec(read('test/e2e/large-deliveries.test.ts'))?.[1]
				.toLowerCase() ?? 'missing',
	},
	// Bench results.
	{
		figure: '48 hours',
		in: ['docs/nodes/scheduled-scrape-trigger.md'],
		source: 'scheduleHealth.ts silenceAllowedMs (daily)',
		expected: () => `${silenceAllowedMs('daily') / HOUR_MS} hours`,
	},
	{
		figure: '14 days',
		in: ['docs/nodes/scheduled-scrape-trigger.md'],
		source: 'scheduleHealth.ts silenceAllowedMs (weekly)',
		expected: () => `${silenceAllowedMs('weekly') / (24 * HOUR_MS)} days`,
	},
	{
		figure: '62 days',
		in: ['docs/nodes/scheduled-scrape-trigger.md'],
		source: 'scheduleHealth.ts silenceAllowedMs (monthly)',
		expected: () => `${silenceAllowedMs('monthly') / (24 * HOUR_MS)} days`,
	},
	{
		figure: '15 minutes',
		in: ['docs/nodes/scheduled-scrape-trigger.md'],
		source: "scheduleHealth.ts checkCron('quarterHour')",
		expected: () => `${/\/(\d+) /.exec(checkCron('quarterHour', 'daily', 0)!)![1]} minutes`,
	},
	{
		figure: '10 seconds',
		in: ['docs/nodes/scheduled-scrape-trigger.md'],
		source: "scheduleHealth.ts checkCron('tenSeconds')",
		expected: () => `${/^\*\/(\d+) /.exec(checkCron('tenSeconds', 'daily', 0)!)![1]} seconds`,
	},
	{
		figure: '5 s',
		in: ['docs/production.md'],
		source: 'deploy/haproxy.cfg, timeout connect',
		expected: () => `${/timeout connect (\d+)s/.exec(read('deploy/haproxy.cfg'))![1]} s`,
	},
	{
		figure: '10 s',
		in: ['docs/running-at-scale.md', 'docs/production.md'],
		source: "bench/results/full.json (burst: the senders' shorter patience, the page's rows)",
		expected: () => agree(`${burstCells().patiences[0] / 1000} s`, `${PAGE_PATIENCE_MS / 1000} s`),
	},
	{
		figure: '30 s',
		in: ['docs/running-at-scale.md'],
		source: "bench/results/full.json (burst: the senders' longer patience)",
		expected: () => `${burstCells().patiences.at(-1)! / 1000} s`,
	},
	{
		figure: '11.7 gb',
		in: ['docs/running-at-scale.md'],
		source:
			"bench/results/full.json (burst: n8n's peak with n8n's Webhook node → Scraping Delivery, defaults, straight to n8n)",
		expected: () => `${straightPeakGb('pattern')} gb`,
	},
	{
		figure: '10.7 gb',
		in: ['docs/running-at-scale.md'],
		source:
			"bench/results/full.json (burst: n8n's peak with n8n's Webhook node alone, defaults, straight to n8n)",
		expected: () => `${straightPeakGb('webhook')} gb`,
	},
	{
		figure: '20 and 100 mib',
		in: [delivery],
		source: 'bench/results/full.json (large-delivery sizes) and test/e2e/large-deliveries.test.ts',
		expected: () => largeDelivery(listed),
	},
	{
		figure: '20 mib',
		in: ['docs/performance.md', delivery],
		source: 'bench/results/full.json (large-delivery sizes) and test/e2e/large-deliveries.test.ts',
		expected: () => largeDelivery((sizes) => sizes[0]),
	},
	{
		figure: '100 mib',
		in: ['docs/performance.md', delivery],
		source: 'bench/results/full.json (large-delivery sizes) and test/e2e/large-deliveries.test.ts',
		expected: () => largeDelivery((sizes) => sizes[sizes.length - 1]),
	},
	{
		figure: '16 executions per second',
		in: ['docs/many-profiles.md'],
		source: 'bench/results/full.json, waiting: regular, resumes per second (median)',
		expected: () =>
			`${median(benchRow('waiting', 'regular, callbacks as fast as n8n answers (16 in flight): resumes per second (ratio A/B)').a.value)} executions per second`,
	},
	{
		figure: '15/s',
		in: ['docs/many-profiles.md'],
		source: 'bench/results/full.json, waiting: queue mode, resumes per second (median)',
		expected: () =>
			`${median(benchRow('waiting', 'queue, callbacks as fast as n8n answers (16 in flight): resumes per second (ratio A/B)').a.value)}/s`,
	},
	{
		figure: '50 per second',
		in: ['docs/troubleshooting.md'],
		source: 'bench/results/full.json, waiting: the paced delivery rate',
		expected: () => {
			const paced = bench('waiting').params.deliveries.find((d: { rate: number | null }) => d.rate);
			return `${paced.rate} per second`;
		},
	},
	{
		figure: '5 minutes',
		in: ['docs/many-profiles.md'],
		source: 'docs/results/patterns.json simulatedJobMinutes',
		expected: () => `${patterns.simulatedJobMinutes} minutes`,
	},
	{
		figure: '300 ms',
		in: ['docs/many-profiles.md'],
		source: 'docs/results/patterns.json (job minutes over the clock compression)',
		expected: () => `${(patterns.simulatedJobMinutes * 60_000) / patterns.clockCompression} ms`,
	},
	// test/compat/measurements.md.
	{
		figure: '1,100 s',
		in: [README],
		near: 'in the last fresh-clone CI run',
		source: "test/compat/measurements.md, the last recorded CI run's README test phase",
		expected: () => {
			const phases = measuredRows(/^tests \(README test command/);
			if (phases.length === 0) throw new Error('no README test phase recorded');
			return `${thousands(Number.parseInt(phases[phases.length - 1][1], 10))} s`;
		},
	},
	{
		figure: '2,700 s',
		in: [CONTRIBUTING],
		source: 'test/compat/measurements.md, the CI run on 9e76e8d',
		expected: () => ciRunOn('9e76e8d'),
	},
	{
		figure: '2,694 s',
		in: [CONTRIBUTING],
		source: 'test/compat/measurements.md, the CI run on e28bc9d',
		expected: () => ciRunOn('e28bc9d'),
	},
	{
		figure: '2,085 and 2,083 tests',
		in: [CONTRIBUTING],
		source: 'test/compat/measurements.md, passed tests of the CI runs on 9e76e8d and e28bc9d',
		expected: () => {
			const [first, second] = sectionOf(LAST_CI_RUNS)
				.split('\n')
				.filter((line) => line.startsWith('| **total** |'))
				.map((line) => thousands(Number(line.split('|')[5].trim())));
			return `${first} and ${second} tests`;
		},
	},
	{
		figure: '0–4 s',
		in: [CONTRIBUTING],
		source:
			'test/compat/measurements.md, "after the last test" over the CI runs on 9e76e8d and e28bc9d',
		expected: () => {
			const after = sectionOf(LAST_CI_RUNS)
				.split('\n')
				.filter((line) => /^\| .* \| ok \|/.test(line))
				.map((line) => line.split('|').slice(1, -1).pop()?.trim() ?? '')
				.filter((cell) => cell !== '')
				.map((cell) => Number.parseFloat(cell));
			return `${Math.min(...after)}–${Math.max(...after)} s`;
		},
	},
	{
		figure: '52.6 s',
		in: [CONTRIBUTING],
		source: "test/compat/measurements.md, installer project on 1.123.81 (jest's time)",
		expected: () => installer('1.123.81'),
	},
	{
		figure: '68.0 s',
		in: [CONTRIBUTING],
		source: "test/compat/measurements.md, installer project on 2.41.1 (jest's time)",
		expected: () => installer('2.41.1'),
	},
	{
		figure: '96-case',
		in: [CONTRIBUTING],
		source: 'test/compat/measurements.md, settings matrix on PostgreSQL',
		expected: () => `${matrix('PostgreSQL')[3].split('/')[1]}-case`,
	},
	{
		figure: '30 s',
		in: [CONTRIBUTING],
		near: 'PostgreSQL',
		source: 'test/compat/measurements.md, settings matrix on PostgreSQL',
		expected: () => matrix('PostgreSQL')[2],
	},
	{
		figure: '48 s',
		in: [CONTRIBUTING],
		source: 'test/compat/measurements.md, settings matrix on SQLite',
		expected: () => matrix('SQLite')[2],
	},
	{
		figure: '16 cases',
		in: [CONTRIBUTING],
		source: 'test/compat/measurements.md, settings matrix on SQLite (failed cases)',
		expected: () => {
			const [passed, all] = matrix('SQLite')[3].split(':')[0].split('/').map(Number);
			return `${all - passed} cases`;
		},
	},
];

const found = documents.flatMap(figuresOf);
const allows = (entry: Allowed, figure: Found): boolean =>
	entry.figure === figure.figure &&
	entry.in.includes(figure.file) &&
	(entry.near === undefined || figure.text.includes(entry.near));

describe("figures in README.md, CONTRIBUTING.md, docs/ and the editor's texts", () => {
	it('are found by the scan (it reads the documents it should)', () => {
		expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/performance.md']));
		expect(documents.some((file) => file.startsWith('docs/results/'))).toBe(false);
		expect(found.length).toBeGreaterThan(40);
		expect(found.filter((figure) => figure.file === EDITOR).length).toBeGreaterThan(10);
	});

	it.each(allowed.map((entry) => [entry.figure, entry.in.join(', '), entry] as const))(
		'%s (%s) still reads so in its source',
		(_figure, _files, entry) => {
			let expected: string;
			try {
				expected = entry.expected();
			} catch (error) {
				throw new Error(`${entry.source}: ${(error as Error).message}`);
			}
			if (expected !== entry.figure) {
				throw new Error(
					`The docs write "${entry.figure}" (${entry.in.join(', ')}), but ${entry.source} now gives ` +
						`"${expected}": update the docs (and this entry's figure) from the source.`,
				);
			}
		},
	);

	it('has a source for every figure', () => {
		const unsourced = found
			.filter((figure) => !allowed.some((entry) => allows(entry, figure)))
			.map((figure) => `${figure.file}:${figure.line}: "${figure.figure}"`);
		if (unsourced.length > 0) {
			throw new Error(
				`Figures without a source:\n${unsourced.join('\n')}\nTake each from a committed result or ` +
					'the code (bench/results/full.json from `npm run bench`, test/compat/measurements.md from ' +
					'`bash .ci/run`, a constant of the code) and add an entry to `allowed` in ' +
					'test/unit/package-wide/figures.test.ts that reads it there; or drop the figure.',
			);
		}
	});

	it('allows no figure the docs no longer write', () => {
		const unused = allowed
			.filter((entry) => !found.some((figure) => allows(entry, figure)))
			.map((entry) => `"${entry.figure}" (${entry.in.join(', ')})`);
		if (unused.length > 0) {
			throw new Error(
				`Entries of \`allowed\` (test/unit/package-wide/figures.test.ts) whose figure no document writes any more:\n` +
					`${unused.join('\n')}\nRemove each entry, or correct its figure, files or \`near\` to where the docs now write it.`,
			);
		}
	});
});
