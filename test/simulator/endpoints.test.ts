import { ENDPOINTS, type ApiName } from '../../nodes/shared/endpoints';
import type { ApiDefinition } from '../../simulator/http';
import { ecommerceApi } from '../../simulator/routes/ecommerce';
import { photoApi } from '../../simulator/routes/photo';
import { reviewApi } from '../../simulator/routes/review';
import { schedulingApi } from '../../simulator/routes/scheduling';
import { socialApi } from '../../simulator/routes/social';
import { videoApi } from '../../simulator/routes/video';

/** The simulator's APIs that the credentials address (the review index is reached by schedules). */
const SIMULATED: Record<ApiName, ApiDefinition> = {
	review: reviewApi,
	scheduling: schedulingApi,
	ecommerce: ecommerceApi,
	video: videoApi,
	photo: photoApi,
	social: socialApi,
};

/** Routes the simulator assumes beyond the interface (its route file's header says so). */
const ASSUMED = ['social GET /v1/requests/:request_id'];

describe("the endpoint table and the simulator's routes", () => {
	it.each(Object.entries(SIMULATED))('%s: the same endpoints, method and path', (api, sim) => {
		const table = ENDPOINTS.endpoints
			.filter((endpoint) => endpoint.api === api)
			.map(({ method, path }) => `${method} ${path}`);
		const routes = sim.routes
			.map(({ method, path }) => `${method} ${path}`)
			.filter((route) => !ASSUMED.includes(`${api} ${route}`));
		expect(table.sort()).toEqual(routes.sort());
	});
});
