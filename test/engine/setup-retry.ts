// Retries as the transport makes them, with short pauses: a fault test waits milliseconds, not the
// seconds a user's run would. The shipped policy is frozen; this replaces the module for the
// engine tests only.
jest.mock('../../nodes/shared/outgoing/transport/retryPolicy', () => {
	const actual = jest.requireActual('../../nodes/shared/outgoing/transport/retryPolicy');
	return { retryPolicy: { ...actual.retryPolicy, baseDelayMs: 5, maxDelayMs: 20 } };
});
