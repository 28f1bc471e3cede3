import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import type { Simulator } from '../../simulator/server';

/**
 * Counts how many requests the simulator holds at once. The simulator does not expose its
 * server, so the probe reaches for it: this is measurement code, never shipped.
 */
export class ConcurrencyProbe {
	private inFlight = 0;
	peak = 0;
	private readonly onRequest = (_req: IncomingMessage, res: ServerResponse) => {
		this.inFlight++;
		if (this.inFlight > this.peak) this.peak = this.inFlight;
		res.once('close', () => this.inFlight--);
	};

	constructor(private readonly simulator: Simulator) {
		this.server().on('request', this.onRequest);
	}

	private server(): Server {
		const server = (this.simulator as unknown as { server?: Server }).server;
		if (!server) throw new Error('the simulator is not started');
		return server;
	}

	reset(): void {
		this.peak = this.inFlight;
	}

	detach(): void {
		this.server().off('request', this.onRequest);
	}
}

export function countRequests(simulator: Simulator, path: string): number {
	return simulator.state.requestLog.filter((entry) => entry.path.startsWith(path)).length;
}
