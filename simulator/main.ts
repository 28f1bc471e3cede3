/**
 * `npm run simulator [-- --port 4010 --token T --api-key K --delay MS]`
 * Environment: SIM_PORT, SIM_TOKEN, SIM_API_KEY, SIM_COMPLETION_DELAY_MS.
 */
import { createSimulator } from './server';

function flag(name: string): string | undefined {
	const args = process.argv.slice(2);
	const inline = args.find((arg) => arg.startsWith(`--${name}=`));
	if (inline) return inline.slice(name.length + 3);
	const index = args.indexOf(`--${name}`);
	return index >= 0 ? args[index + 1] : undefined;
}

function number(name: string, raw: string | undefined): number | undefined {
	if (raw === undefined) return undefined;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < 0) {
		throw new Error(`--${name} must be a non-negative integer`);
	}
	return value;
}

async function main() {
	const sim = createSimulator({
		port: number('port', flag('port') ?? process.env.SIM_PORT) ?? 4010,
		token: flag('token') ?? process.env.SIM_TOKEN,
		apiKey: flag('api-key') ?? process.env.SIM_API_KEY,
		completionDelayMs: number('delay', flag('delay') ?? process.env.SIM_COMPLETION_DELAY_MS),
	});
	await sim.start();
	const { urls, config } = sim;
	const lines = [
		'Review scraping service simulator (dev only) is listening on 127.0.0.1',
		'',
		'Review Scraper API credential',
		`  Base URL (baseUrl)                     ${urls.baseUrl}`,
		`  API Token (header spiderman-token)     ${config.token}`,
		'',
		'Scraping API credential',
		`  API Key (header x-api-key)             ${config.apiKey}`,
		`  Scheduling URL (schedulingUrl)         ${urls.schedulingUrl}`,
		`  E-Commerce URL (ecommerceUrl)          ${urls.ecommerceUrl}`,
		`  Video Scraper URL (videoScraperUrl)    ${urls.videoScraperUrl}`,
		`  Photo Scraper URL (photoScraperUrl)    ${urls.photoScraperUrl}`,
		`  Social Scraper URL (socialScraperUrl)  ${urls.socialScraperUrl}`,
		`  Review Index URL (reviewIndexUrl)      ${urls.reviewIndexUrl}`,
		'',
		`Control API (no auth)                    ${urls.controlUrl}`,
		`Jobs complete after ${config.completionDelayMs} ms. Ctrl+C stops.`,
	];
	console.log(lines.join('\n'));
	const shutdown = () => {
		sim.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', shutdown);
	process.once('SIGTERM', shutdown);
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
