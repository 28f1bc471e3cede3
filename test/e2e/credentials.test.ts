import { builtCredentialTypes, secretField, simulatorCredentialData } from './harness/fixtures';
import { useE2e } from './harness/suite';

const { client, simulator } = useE2e({ resetEachTest: false });

const credentials = builtCredentialTypes();

describe.each(credentials.map((c) => [c.name, c] as const))(
	'credential test of %s',
	(_, credential) => {
		it('succeeds against the simulator with the right secret', async () => {
			simulator.clearRequests();
			const result = await client.testCredential(
				credential.name,
				simulatorCredentialData(credential, simulator),
			);
			expect(result).toEqual(expect.objectContaining({ status: 'OK' }));
			// The test request really reached the simulator, with the secret in the credential's header.
			const [request] = simulator.requests();
			expect(request).toBeDefined();
			expect(request.responseStatus).toBe(200);
			expect(Object.values(request.headers)).toContain(
				simulatorCredentialData(credential, simulator)[secretField(credential)],
			);
		});

		it('fails with a clear message, without echoing the secret, for a wrong secret', async () => {
			const wrong = `wrong-${credential.name}-secret`;
			simulator.clearRequests();
			const result = await client.testCredential(
				credential.name,
				simulatorCredentialData(credential, simulator, { [secretField(credential)]: wrong }),
			);
			expect(result.status).toBe('Error');
			// Both credentials are tested by a function of their nodes (testedBy), which words the
			// refusal itself on every n8n: 1.x's own "Authorization failed" is never reached.
			expect(result.message).toMatch(/^The API (token|key) was refused/);
			expect(result.message).not.toContain(wrong);
			const [request] = simulator.requests();
			if (credential.name === 'reviewScraperApi') {
				// As in production, the refusal came in HTTP 200: only the body said no.
				expect(request.responseStatus).toBe(200);
				expect(result.message).toContain('the token is invalid. Check the API Token field');
				expect(result.message).not.toContain('spiderman-token');
			} else {
				expect(request.responseStatus).toBe(401);
			}
		});
	},
);
