import { ReviewScraperApi } from '../../../credentials/ReviewScraperApi.credentials';
import { ScrapingApi } from '../../../credentials/ScrapingApi.credentials';
import { packageNodes } from '../nodeClasses';

/**
 * What n8n reads of the package: every node's and credential's description, as n8n serialises it.
 * A refactor keeps it byte for byte; a deliberate change updates the snapshot (`jest -u`) in the
 * same commit, and renaming or removing a parameter or option value also needs a node version.
 */
const asServed = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('descriptions served to n8n', () => {
	it.each(packageNodes.map(({ folder, node }) => [folder, node]))('%s', (_folder, node) => {
		expect(asServed(node.description)).toMatchSnapshot();
	});

	it.each([
		['ReviewScraperApi', new ReviewScraperApi()],
		['ScrapingApi', new ScrapingApi()],
	])('credential %s', (_name, credential) => {
		expect(asServed(credential)).toMatchSnapshot();
	});
});
