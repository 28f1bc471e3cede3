import type { Simulator } from '../../../simulator/server';

/**
 * Submits asynchronous requests straight to the simulator (no n8n in between), so that a test can
 * make the service call back any URL with each payload kind it produces.
 */
export function directSubmitter(simulator: Simulator) {
	const post = async (url: string, body?: unknown, headers: Record<string, string> = {}) => {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await res.json()) as Record<string, unknown>;
		if (!res.ok) throw new Error(`POST ${url} → ${res.status}: ${JSON.stringify(json)}`);
		return json;
	};
	const key = { 'x-api-key': simulator.config.apiKey };
	return {
		reviewJob: (callback: string, url = 'https://www.example.com/biz/e2e-direct', blocks = 3) =>
			post(
				`${simulator.urls.baseUrl}/api/v2/profiles/add?${new URLSearchParams({ url, callback, blocks: String(blocks) })}`,
				undefined,
				{ 'spiderman-token': simulator.config.token },
			),
		productSearch: (callback: string, keyword = 'e2e headphones') =>
			post(`${simulator.urls.ecommerceUrl}/search`, { callback, keyword, per_page: 5 }, key),
		photoSearch: (callbackUrl: string, keyword = '#e2e') =>
			post(
				`${simulator.urls.photoScraperUrl}/v1/search`,
				{ callback_url: callbackUrl, keyword },
				key,
			),
		socialScrape: (callbackUrl: string, url = 'https://social.example.com/e2e/posts/1') =>
			post(`${simulator.urls.socialScraperUrl}/v1/scrape`, { callback_url: callbackUrl, url }, key),
		videoRequest: (callbackUrl: string) =>
			simulator.seedVideoRequest({ request_metadata: { callback_url: callbackUrl } }),
		reviewIndex: (callback: string) =>
			post(
				`${simulator.urls.reviewIndexUrl}/profiles?${new URLSearchParams({ api_key: simulator.config.apiKey, callback, query: 'e2e' })}`,
			),
	};
}
